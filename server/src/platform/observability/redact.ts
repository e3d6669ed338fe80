/** Query parameters that carry a credential: a download ticket or a token must never reach the logs. */
const SECRET_PARAMS = /([?&](?:ticket|token|access_token|code|state)=)[^&#]*/gi;

/** The request URL as it may be logged, with credential query values replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}
