import { type FileItem, thumbnailSourceOf } from '@guildhall/common';
import { useEffect, useRef, useState } from 'react';
import { cn } from '../../ui/cn.ts';
import { fetchThumbnail } from './api.ts';
import { ItemIcon } from './ItemIcon.tsx';

/** Thumbnails already fetched this session (object URLs), by file and content, so re-renders reuse them. */
const cache = new Map<string, Promise<string | null>>();

export type ThumbnailSource = { path: string; headers?: Record<string, string> };

/**
 * A file's server-made thumbnail once the card scrolls into view, else (no picture, not made yet,
 * a failure) its kind's icon. Folders and files without a picture never ask.
 */
export function Thumbnail({
  item,
  source,
  className,
  iconClassName,
}: {
  item: Pick<FileItem, 'id' | 'name' | 'type' | 'sha256'>;
  source?: ThumbnailSource;
  className?: string;
  iconClassName?: string;
}) {
  const box = useRef<HTMLSpanElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const wanted = item.type === 'file' && thumbnailSourceOf(item.name) !== null;
  const path = source?.path ?? `/api/files/${encodeURIComponent(item.id)}/thumbnail`;
  const key = `${path}#${item.sha256 ?? ''}`;

  useEffect(() => {
    if (!wanted || !box.current) return;
    let isLive = true;
    const load = () => {
      let pending = cache.get(key);
      if (!pending) {
        pending = fetchThumbnail(path, source?.headers).catch(() => null);
        cache.set(key, pending);
      }
      void pending.then((u) => isLive && setUrl(u));
    };
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        load();
      }
    });
    observer.observe(box.current);
    return () => {
      isLive = false;
      observer.disconnect();
    };
  }, [wanted, key, path, source?.headers]);

  return (
    <span ref={box} className={cn('flex items-center justify-center overflow-hidden', className)}>
      {url ? (
        <img src={url} alt="" data-testid="thumbnail" className="size-full object-cover" draggable={false} />
      ) : (
        <ItemIcon item={item} className={iconClassName} />
      )}
    </span>
  );
}
