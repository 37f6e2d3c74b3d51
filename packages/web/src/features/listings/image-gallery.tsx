import { useState, type KeyboardEvent } from 'react';
import { LISTING_PHOTO_SIZES } from '@campus-books/common/images';
import { ListingImage } from '../../components/listing-image';

/** The main photo's width: half the page from md (less padding and gap), the page less padding below. */
const PHOTO_SIZES = LISTING_PHOTO_SIZES;

/** Thumbnails beside a main image; the thumbnails are buttons, and arrow keys move between them. */
export function ImageGallery({ imageUrls, name }: { imageUrls: string[]; name: string }) {
  const [index, setIndex] = useState(0);
  const current = imageUrls[Math.min(index, imageUrls.length - 1)];
  const count = imageUrls.length;

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const delta = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    if (!delta || count < 2) return;
    event.preventDefault();
    const next = (index + delta + count) % count;
    setIndex(next);
    const buttons = event.currentTarget.querySelectorAll('button');
    buttons[next]?.focus();
  }

  if (!current) {
    return (
      <div className="flex aspect-[3/4] w-full items-center justify-center rounded-xl bg-slate-200 text-slate-700">
        No image
      </div>
    );
  }

  return (
    <div className="flex min-w-0 flex-col-reverse gap-3 sm:flex-row">
      {count > 1 ? (
        <div
          role="group"
          aria-label="Choose an image"
          onKeyDown={onKeyDown}
          className="flex gap-2 overflow-x-auto sm:w-20 sm:shrink-0 sm:flex-col"
        >
          {imageUrls.map((url, i) => (
            <button
              key={url}
              type="button"
              aria-label={`Show image ${i + 1} of ${count}`}
              aria-pressed={i === index}
              tabIndex={i === index ? 0 : -1}
              onClick={() => setIndex(i)}
              className={`w-16 shrink-0 overflow-hidden rounded-lg border-2 sm:w-full ${
                i === index ? 'border-brand-700' : 'border-transparent opacity-80 hover:opacity-100'
              }`}
            >
              <ListingImage
                url={url}
                alt=""
                width={80}
                height={107}
                sizes="80px"
                loading="lazy"
                className="aspect-[3/4] w-full object-cover"
              />
            </button>
          ))}
        </div>
      ) : null}
      <div className="flex-1 overflow-hidden rounded-xl bg-slate-100">
        <ListingImage
          url={current}
          alt={count > 1 ? `${name} (image ${index + 1} of ${count})` : name}
          width={600}
          height={800}
          sizes={PHOTO_SIZES}
          fetchPriority="high"
          className="aspect-[3/4] w-full object-contain"
        />
      </div>
    </div>
  );
}
