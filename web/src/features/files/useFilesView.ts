import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import {
  fetchBreadcrumbs,
  fetchCategories,
  fetchFolder,
  fetchLimits,
  fetchUsage,
  searchByCategory,
} from './api.ts';

export const FILES_KEY = ['files'] as const;

/**
 * Where the screen is (a folder, or a category across folders, kept in the URL so Back works) and
 * what it shows there.
 */
export function useFilesView() {
  const [params, setParams] = useSearchParams();
  const folderId = params.get('folder');
  const category = params.get('category');
  const queryClient = useQueryClient();

  const listing = useQuery({
    queryKey: [...FILES_KEY, 'list', category ? { category } : { folderId }],
    queryFn: () => (category ? searchByCategory(category) : fetchFolder(folderId)),
    retry: false,
  });
  const crumbs = useQuery({
    queryKey: [...FILES_KEY, 'crumbs', folderId],
    queryFn: () => fetchBreadcrumbs(folderId!),
    enabled: !!folderId && !category,
  });
  const categories = useQuery({ queryKey: [...FILES_KEY, 'categories'], queryFn: fetchCategories });
  const limits = useQuery({
    queryKey: [...FILES_KEY, 'limits'],
    queryFn: fetchLimits,
    staleTime: Number.POSITIVE_INFINITY,
  });

  // Under FILES_KEY, so it refreshes with the listing after uploads and deletions.
  const usage = useQuery({ queryKey: [...FILES_KEY, 'usage'], queryFn: fetchUsage });

  const openFolder = useCallback((id: string | null) => setParams(id ? { folder: id } : {}), [setParams]);
  const showCategory = useCallback(
    (name: string | null) => setParams(name ? { category: name } : folderId ? { folder: folderId } : {}),
    [setParams, folderId],
  );
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: FILES_KEY }), [queryClient]);

  return {
    folderId: category ? null : folderId,
    category,
    items: listing.data?.data ?? [],
    stats: listing.data?.stats ?? null,
    isLoading: listing.isPending,
    isError: listing.isError,
    error: listing.error,
    retry: () => listing.refetch(),
    crumbs: crumbs.data ?? [],
    categories: categories.data ?? [],
    maxUploadBytes: limits.data?.maxUploadBytes ?? null,
    usage: usage.data ?? null,
    openFolder,
    showCategory,
    refresh,
  };
}

export type FilesView = ReturnType<typeof useFilesView>;
