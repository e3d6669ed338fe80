import type { PublicConfig } from '@guildhall/common';
import { useEffect, useState } from 'react';
import { apiFetch } from '../api/client.ts';

// One request per page load: the login page, the setup banner and the admin list all read it.
let pending: Promise<PublicConfig | null> | null = null;

export function loadPublicConfig(): Promise<PublicConfig | null> {
  // Not parsed with the zod schema: this runs on /login, which must not ship zod (issue 17, < 100 KB).
  pending ??= apiFetch<PublicConfig>('/api/config', { token: null }).catch(() => {
    pending = null; // a failed read is retried by the next caller
    return null;
  });
  return pending;
}

/** The server's public configuration (Discord configured? setup mode?), null until known or on failure. */
export function usePublicConfig(): PublicConfig | null {
  const [config, setConfig] = useState<PublicConfig | null>(null);
  useEffect(() => {
    let live = true;
    void loadPublicConfig().then((c) => {
      if (live) setConfig(c);
    });
    return () => {
      live = false;
    };
  }, []);
  return config;
}
