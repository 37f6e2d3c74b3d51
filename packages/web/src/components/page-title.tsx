import { PRODUCT_NAME } from '@campus-books/common/campus';

/** Sets document.title (React 19 hoists <title> into <head>). */
export function PageTitle({ title }: { title: string }) {
  return <title>{title === PRODUCT_NAME ? title : `${title} | ${PRODUCT_NAME}`}</title>;
}
