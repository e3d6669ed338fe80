import { type ComponentType, lazy, Suspense } from 'react';
import { PageSpinner } from './ui/Spinner.tsx';

/**
 * A page component loaded on first render (code splitting per route), with a spinner meanwhile.
 * Lazy pages get TanStack Query's provider, which is loaded alongside them rather than up front.
 */
export function lazyPage<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): ComponentType {
  const Lazy = lazy<ComponentType>(async () => {
    const [mod, { QueryProvider }] = await Promise.all([load(), import('./query-provider.tsx')]);
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
  return function LazyPage() {
    return (
      <Suspense fallback={<PageSpinner />}>
        <Lazy />
      </Suspense>
    );
  };
}
