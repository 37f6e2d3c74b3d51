import { activeCampus } from '@campus-books/common/active-campus';

/** A page's document title: the page's, then the product's (a page named as the product: its name alone). */
export function documentTitle(title: string): string {
  const product = activeCampus().productName;
  return title === product ? title : `${title} | ${product}`;
}

/** Sets document.title (React 19 hoists <title> into <head>). */
export function PageTitle({ title }: { title: string }) {
  return <title>{documentTitle(title)}</title>;
}
