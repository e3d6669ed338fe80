import { type ComponentType, lazy, Suspense } from 'react';
import { PageSpinner } from './ui/Spinner.tsx';

/** A lazily loaded page; `preload` starts fetching its files early (idempotent). */
export type LazyPageComponent = ComponentType & { preload: () => Promise<unknown> };

/**
 * A page component loaded on first render (code splitting per route), with a spinner meanwhile.
 * Lazy pages get TanStack Query's provider, which is loaded alongside them rather than up front.
 * The route guard calls `preload` while the session is still being checked, so the page's files
 * come in parallel with that request instead of after it (issue 31: one round trip less on a cold load).
 */
export function lazyPage<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): LazyPageComponent {
  let loading: Promise<[Record<K, ComponentType>, typeof import('./query-provider.tsx')]> | null = null;
  const preload = () => {
    loading ??= Promise.all([load(), import('./query-provider.tsx')]);
    // A failed load is retried on the next render (the error page's Reload, or navigating back).
    loading.catch(() => {
      loading = null;
    });
    return loading;
  };
  const Lazy = lazy<ComponentType>(async () => {
    const [mod, { QueryProvider }] = await preload();
    const Page: ComponentType = mod[name];
    return {
      default: () => (
        <QueryProvider>
          <Page />
        </QueryProvider>
      ),
    };
  });
  // biome-ignore lint/correctness/noComponentHookFactories: called once per route at module level, never during render.
  function LazyPage() {
    return (
      <Suspense fallback={<PageSpinner />}>
        <Lazy />
      </Suspense>
    );
  }
  return Object.assign(LazyPage, { preload });
}
