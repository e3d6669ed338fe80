import 'swagger-ui-dist/swagger-ui.css';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiFetch, getStoredToken } from '../../api/client.ts';
import { BackLink } from '../../ui/BackLink.tsx';
import { Page } from '../../ui/Page.tsx';
import { PageSpinner } from '../../ui/Spinner.tsx';

/**
 * The API reference for admins (issue 32): Swagger UI over the OpenAPI document the server generates from
 * its route schemas (GET /api/openapi.json, admins only). "Try it out" calls the API as the admin who is
 * signed in. Its own lazy module: Swagger UI (≈ 1.7 MB) loads only here.
 */
export function ApiReferencePage() {
  const doc = useQuery({ queryKey: ['openapi'], queryFn: () => apiFetch<unknown>('/api/openapi.json') });
  const mount = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const node = mount.current;
    if (!node || !doc.data) return;
    let cancelled = false;
    void import('swagger-ui-dist/swagger-ui-es-bundle.js').then(({ default: SwaggerUI }) => {
      if (cancelled) return;
      SwaggerUI({
        domNode: node,
        spec: doc.data,
        deepLinking: false,
        // One heading per part of the API (music, files…), opened on demand: the whole list at once
        // was more than Swagger UI would draw (issue 46 merge).
        docExpansion: 'none',
        defaultModelsExpandDepth: 0,
        requestInterceptor: (req) => {
          const token = getStoredToken();
          if (token) req.headers.Authorization = `Bearer ${token}`;
          return req;
        },
      });
    });
    return () => {
      cancelled = true;
      node.replaceChildren();
    };
  }, [doc.data]);

  return (
    <Page>
      <div className="mb-6">
        <BackLink to="/admin">
          <span>
            Back<span className="hidden sm:inline"> to Admin Panel</span>
          </span>
        </BackLink>
      </div>
      <header className="mb-6">
        <p className="text-sm text-muted">Admin Panel</p>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">API Reference</h1>
        <p className="mt-1 text-sm text-muted">
          Every route, its access level and its request and response shapes, generated from the server's
          schemas. Requests made here act as you.
        </p>
      </header>
      {doc.isPending && <PageSpinner />}
      {doc.error && (
        <p
          role="alert"
          className="mb-6 rounded-xl border border-danger/30 bg-danger/10 px-4 py-3 text-sm text-danger-text"
        >
          Could not load the API document: {doc.error.message}
        </p>
      )}
      {/* Swagger UI brings its own light styles; a light card keeps it readable in the dark theme too. */}
      <div ref={mount} data-testid="api-reference" className="api-reference rounded-xl bg-white text-black" />
    </Page>
  );
}
