import type { BookDetails } from '@campus-books/common/book.schemas';
import type { ListingCreateInput } from '@campus-books/common/listing.schemas';
import { courseSlug, parseCourseCode } from '@campus-books/common/course';
import { toIsbn13 } from '@campus-books/common/isbn';
import { useDeferredValue, useEffect, useState } from 'react';
import {
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormGetValues,
  type UseFormRegister,
  type UseFormSetValue,
} from 'react-hook-form';
import { ScanIsbnButton } from '../../components/scan-isbn-button';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/form-field';
import { importPublisherCover, lookupBook } from './api/books';
import { CoursePriceHint, IsbnPriceHint } from './price-hint';
import { DemandLine } from '../../components/demand';
import { SubjectOptions } from '../../components/subject-options';
import type { ListingFormValues } from './listing-form-values';

type Form = {
  register: UseFormRegister<ListingFormValues>;
  control: Control<ListingFormValues, unknown, ListingCreateInput>;
  setValue: UseFormSetValue<ListingFormValues>;
  getValues: UseFormGetValues<ListingFormValues>;
  errors: FieldErrors<ListingFormValues>;
};

/** The form fields autofill may fill, with the book's value for each. */
const AUTOFILL: {
  field: 'name' | 'authors' | 'edition';
  label: string;
  of(b: BookDetails): string | null;
}[] = [
  { field: 'name', label: 'title', of: (b) => b.title?.slice(0, 62) ?? null },
  { field: 'authors', label: 'authors', of: (b) => b.authors },
  { field: 'edition', label: 'edition', of: (b) => b.edition },
];

/**
 * The book and course part of the listing form: the ISBN (typed, or scanned from the back cover),
 * autofill of the empty fields from it, the subject of the course, this campus's price hint, and the
 * publisher's cover as an image.
 */
export function BookFields({ register, control, setValue, getValues, errors }: Form) {
  const isbnText = useWatch({ control, name: 'isbn' });
  const imageUrls = useWatch({ control, name: 'imageUrls' });
  const publisherCover = useWatch({ control, name: 'publisherCover' });
  const [name, courseNumber, subject] = useWatch({
    control,
    name: ['name', 'courseNumber', 'subject'],
  });
  // Without an ISBN, the hint follows the name and course once both are known.
  const deferredTitle = useDeferredValue(typeof name === 'string' ? name.trim() : '');
  const courseText = `${typeof subject === 'string' ? subject : ''} ${String(courseNumber ?? '')}`;
  const course = parseCourseCode(courseText);
  const isbn13 = typeof isbnText === 'string' ? toIsbn13(isbnText) : null;
  // What the lookup of one ISBN said; while the current ISBN's answer is on its way, "looking".
  const [lookup, setLookup] = useState<{ isbn: string; book: BookDetails | null; note: string }>({
    isbn: '',
    book: null,
    note: '',
  });
  const [coverNote, setCoverNote] = useState('');
  const isCurrent = isbn13 !== null && lookup.isbn === isbn13;
  const book = isCurrent ? lookup.book : null;
  const note = isbn13 === null ? '' : isCurrent ? lookup.note : 'Looking the book up…';
  const [isImporting, setIsImporting] = useState(false);

  // Autofill once per ISBN: only the fields still empty, and say which.
  useEffect(() => {
    if (!isbn13) return;
    const controller = new AbortController();
    const settle = (found: BookDetails | null, text: string) =>
      setLookup({ isbn: isbn13, book: found, note: text });
    lookupBook(isbn13, controller.signal)
      .then((answer) => {
        if (!answer.found) {
          settle(null, answer.message);
          return;
        }
        const filled: string[] = [];
        for (const { field, label, of } of AUTOFILL) {
          const value = of(answer.book);
          const current = getValues(field);
          if (value && (typeof current !== 'string' || current.trim() === '')) {
            setValue(field, value, { shouldDirty: true });
            filled.push(label);
          }
        }
        settle(
          answer.book,
          filled.length > 0
            ? `Filled in from the ISBN: ${filled.join(', ')}. Check them before you publish.`
            : 'We found the book; your own entries are kept.',
        );
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        settle(
          null,
          error instanceof Error && /sign in/i.test(error.message)
            ? error.message
            : "We couldn't look it up, fill in the form yourself",
        );
      });
    return () => controller.abort();
  }, [isbn13, getValues, setValue]);

  // The publisher's cover stays marked only while it is one of the images.
  useEffect(() => {
    if (publisherCover && !(imageUrls ?? []).includes(publisherCover)) {
      setValue('publisherCover', null);
    }
  }, [imageUrls, publisherCover, setValue]);

  async function addPublisherCover() {
    if (!isbn13) return;
    setIsImporting(true);
    try {
      const { url } = await importPublisherCover(isbn13);
      setValue('imageUrls', [...(getValues('imageUrls') ?? []), url], { shouldValidate: true });
      setValue('publisherCover', url);
    } catch (error) {
      setCoverNote(
        error instanceof Error ? error.message : "We couldn't add the publisher's cover",
      );
    } finally {
      setIsImporting(false);
    }
  }

  const hasCover = Boolean(publisherCover && (imageUrls ?? []).includes(publisherCover));
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-300 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">The book</legend>
      <TextField
        label="ISBN"
        placeholder="978-0-262-03384-8"
        inputMode="text"
        autoComplete="off"
        hint="On the back cover, above the barcode. Optional."
        error={errors.isbn?.message}
        {...register('isbn')}
      />
      <ScanIsbnButton onIsbn={(isbn) => setValue('isbn', isbn, { shouldValidate: true })} />
      {note ? (
        <p role="status" className="text-sm text-slate-700" data-testid="autofill-note">
          {note}
        </p>
      ) : null}
      <TextField label="Authors" error={errors.authors?.message} {...register('authors')} />
      <TextField
        label="Edition"
        placeholder="e.g. 3rd"
        error={errors.edition?.message}
        {...register('edition')}
      />
      <SelectField label="Subject" error={errors.subject?.message} {...register('subject')}>
        <SubjectOptions emptyLabel="Not specified" />
      </SelectField>
      {isbn13 ? (
        <IsbnPriceHint isbn13={isbn13} />
      ) : course && deferredTitle.length >= 3 ? (
        <CoursePriceHint
          course={courseSlug(course.subject, course.courseNumber)}
          title={deferredTitle}
        />
      ) : null}
      <DemandLine isbn={isbn13} subject={course?.subject} courseNumber={course?.courseNumber} />
      {book?.coverUrl && !hasCover ? (
        <div className="space-y-1">
          <Button
            type="button"
            variant="secondary"
            isLoading={isImporting}
            onClick={() => void addPublisherCover()}
          >
            Add the publisher&apos;s cover
          </Button>
          <p className="text-sm text-slate-600">
            Buyers trust a photo of your own copy most: add one too.
          </p>
        </div>
      ) : null}
      {coverNote ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {coverNote}
        </p>
      ) : null}
      {hasCover ? (
        <p className="text-sm text-slate-700">
          One image is the publisher&apos;s cover. Add a photo of your own copy too.
        </p>
      ) : null}
    </fieldset>
  );
}
