/**
 * The billing provider sends the browser back only to this app (Checkout's success and cancel URLs,
 * the portal's return URL): a URL on another origin is a bug, refused before the provider sees it, so
 * neither adapter can be used to bounce a browser to another site.
 */
export function appReturnUrl(appUrl: string, url: string): string {
  const appOrigin = new URL(appUrl).origin;
  if (new URL(url).origin !== appOrigin) throw new Error(`Billing return URL ${url} is not on the app's origin ${appOrigin}`);
  return url;
}
