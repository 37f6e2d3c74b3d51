import { imageSrcSet, imageVariantUrl } from '@campus-books/common/images';
import type { ComponentProps } from 'react';

type ListingImageProps = Omit<ComponentProps<'img'>, 'src' | 'srcSet'> & {
  url: string;
  /** The rendered width, so the browser picks the smallest variant that is sharp enough. */
  sizes: string;
};

/** One of our stored images, served as the right-sized WebP variant. */
export function ListingImage({ url, sizes, alt, ...rest }: ListingImageProps) {
  const srcSet = imageSrcSet(url);
  return (
    <img
      src={srcSet ? imageVariantUrl(url, 640) : url}
      srcSet={srcSet || undefined}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      {...rest}
    />
  );
}
