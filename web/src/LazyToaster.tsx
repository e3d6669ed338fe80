import { lazy, Suspense } from 'react';

// sonner is about 10 KB gzipped and /login never toasts: it loads after the first paint (issue 17:
// /login under 100 KB). toast() calls live in lazy pages and share this same module instance.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/** The app's toaster, below the 56 px navbar so a toast never covers Logout. */
export function LazyToaster() {
  return (
    <Suspense fallback={null}>
      <Toaster
        position="top-right"
        theme="system"
        richColors
        closeButton
        offset={{ top: 72 }}
        mobileOffset={{ top: 64 }}
      />
    </Suspense>
  );
}
