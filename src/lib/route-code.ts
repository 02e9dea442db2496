/**
 * Fetches the code of the page at a path ahead of a likely click, without its data. Features call
 * it; the app, which owns the routes, says how (a feature never imports another feature's page).
 */
let preloader: (path: string) => void = () => {};

export function setRouteCodePreloader(next: (path: string) => void): void {
  preloader = next;
}

export function preloadRouteCode(path: string): void {
  preloader(path);
}
