// swagger-ui-dist ships JavaScript only; the part of its API the API reference page uses.
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  type SwaggerRequest = { headers: Record<string, string>; url: string };
  type SwaggerUIOptions = {
    domNode: HTMLElement;
    spec: unknown;
    deepLinking?: boolean;
    docExpansion?: 'list' | 'full' | 'none';
    defaultModelsExpandDepth?: number;
    tryItOutEnabled?: boolean;
    requestInterceptor?: (req: SwaggerRequest) => SwaggerRequest;
  };
  const SwaggerUI: (options: SwaggerUIOptions) => unknown;
  export default SwaggerUI;
}
