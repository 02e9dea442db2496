export const PRODUCT_NAME = 'Webpage Reports';

/** The browser tab's title for a page: "Projects · Webpage Reports". */
export function documentTitle(pageTitle: string | undefined): string {
  return pageTitle ? `${pageTitle} · ${PRODUCT_NAME}` : PRODUCT_NAME;
}
