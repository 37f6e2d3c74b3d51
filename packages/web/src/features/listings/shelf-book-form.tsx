import type { BookDetails } from '@campus-books/common/book.schemas';
import { CONDITIONS, MAX_IMAGES_ON_CREATE } from '@campus-books/common/constants';
import { courseSlug } from '@campus-books/common/course';
import { conditionLabel } from '@campus-books/common/display';
import { toIsbn13 } from '@campus-books/common/isbn';
import type { DraftFields } from '@campus-books/common/shelf.schemas';
import { useEffect, useRef, useState } from 'react';
import { DemandLine } from '../../components/demand';
import { ScanIsbnButton } from '../../components/scan-isbn-button';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/form-field';
import { ImagePicker } from '../../components/uploads/image-picker';
import { SubjectOptions } from '../../components/subject-options';
import { importPublisherCover, lookupBook } from './api/books';
import { CoursePriceHint, IsbnPriceHint } from './price-hint';
import type { ShelfDraft } from './shelf-store';

interface Props {
  draft: ShelfDraft;
  onChange(change: { fields?: DraftFields; imageUrls?: string[] }): void;
}

/**
 * One book of the shelf: its ISBN (typed or scanned) fills in the book, then a photo (or the
 * publisher's cover), the condition and the price, with the campus's price hint and the course's
 * demand beside them. Every change is kept at once (useShelf).
 */
export function ShelfBookForm({ draft, onChange }: Props) {
  const { fields, imageUrls } = draft;
  const set = (change: Partial<DraftFields>) => onChange({ fields: { ...fields, ...change } });
  const isbn13 = fields.isbn ? toIsbn13(fields.isbn) : null;
  const [lookup, setLookup] = useState<{ isbn: string; book: BookDetails | null; note: string }>({
    isbn: '',
    book: null,
    note: '',
  });
  const [coverNote, setCoverNote] = useState('');
  const [isImporting, setIsImporting] = useState(false);
  const book = lookup.isbn === isbn13 ? lookup.book : null;
  const note = !isbn13 ? '' : lookup.isbn === isbn13 ? lookup.note : 'Looking the book up…';

  // What a lookup's answer fills in: the title, authors and edition still empty, read when it lands.
  const fillRef = useRef<(found: BookDetails) => void>(() => {});
  useEffect(() => {
    fillRef.current = (found) => {
      const fill: Partial<DraftFields> = {};
      if (!fields.name?.trim() && found.title) fill.name = found.title.slice(0, 62);
      if (!fields.authors?.trim() && found.authors) fill.authors = found.authors.slice(0, 300);
      if (!fields.edition?.trim() && found.edition) fill.edition = found.edition.slice(0, 100);
      if (Object.keys(fill).length > 0) onChange({ fields: { ...fields, ...fill } });
    };
  });

  // Once per ISBN.
  useEffect(() => {
    if (!isbn13) return;
    const controller = new AbortController();
    lookupBook(isbn13, controller.signal)
      .then((answer) => {
        if (!answer.found) {
          setLookup({ isbn: isbn13, book: null, note: answer.message });
          return;
        }
        const found = answer.book;
        fillRef.current(found);
        setLookup({ isbn: isbn13, book: found, note: `Found: ${found.title ?? 'the book'}.` });
      })
      .catch(() => {
        if (!controller.signal.aborted) {
          setLookup({ isbn: isbn13, book: null, note: "We couldn't look it up: type the title." });
        }
      });
    return () => controller.abort();
  }, [isbn13]);

  async function addPublisherCover() {
    if (!isbn13) return;
    setIsImporting(true);
    setCoverNote('');
    try {
      const { url } = await importPublisherCover(isbn13);
      onChange({ fields: { ...fields, publisherCover: url }, imageUrls: [...imageUrls, url] });
    } catch (error) {
      setCoverNote(
        error instanceof Error ? error.message : "We couldn't add the publisher's cover",
      );
    } finally {
      setIsImporting(false);
    }
  }

  const subject = fields.subject ?? '';
  const courseNumber = fields.courseNumber?.trim() ?? '';
  const title = fields.name?.trim() ?? '';
  const hasCover = Boolean(fields.publisherCover && imageUrls.includes(fields.publisherCover));
  return (
    <div className="space-y-4">
      <TextField
        label="ISBN"
        placeholder="978-0-262-03384-8"
        autoComplete="off"
        hint="On the back cover, above the barcode."
        value={fields.isbn ?? ''}
        onChange={(e) => set({ isbn: e.target.value })}
      />
      <ScanIsbnButton onIsbn={(isbn) => set({ isbn })} />
      {note ? (
        <p role="status" className="text-sm text-slate-700" data-testid="shelf-autofill-note">
          {note}
        </p>
      ) : null}
      <TextField
        label="Title"
        maxLength={62}
        value={fields.name ?? ''}
        onChange={(e) => set({ name: e.target.value })}
      />
      {/* The subject's words need more room than a course number's digits ("Not specified" was cut
          at 375 px); on the narrowest phones each has a row of its own. The fields line up even
          where "Course number" takes two lines. */}
      <div className="grid items-end gap-3 min-[360px]:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <SelectField
          label="Subject"
          value={subject}
          onChange={(e) => set({ subject: e.target.value })}
        >
          <SubjectOptions emptyLabel="Not specified" />
        </SelectField>
        <TextField
          label="Course number"
          inputMode="numeric"
          maxLength={20}
          value={fields.courseNumber ?? ''}
          onChange={(e) => set({ courseNumber: e.target.value })}
        />
      </div>
      <DemandLine
        isbn={null}
        subject={subject || null}
        courseNumber={subject && courseNumber ? courseNumber : null}
      />
      <div className="grid grid-cols-2 gap-3">
        <SelectField
          label="Condition"
          value={fields.condition ?? 'good'}
          onChange={(e) => set({ condition: e.target.value as DraftFields['condition'] })}
        >
          {CONDITIONS.map((c) => (
            <option key={c} value={c}>
              {conditionLabel(c)}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Price ($)"
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          value={fields.regularPrice ?? ''}
          onChange={(e) =>
            set({ regularPrice: e.target.value === '' ? null : Number(e.target.value) })
          }
        />
      </div>
      {isbn13 ? (
        <IsbnPriceHint isbn13={isbn13} />
      ) : subject && courseNumber && title.length >= 3 ? (
        <CoursePriceHint course={courseSlug(subject, courseNumber)} title={title} />
      ) : null}
      <ImagePicker
        id={`shelf-photos-${draft.id}`}
        value={imageUrls}
        onChange={(urls) => onChange({ imageUrls: urls })}
        maxImages={MAX_IMAGES_ON_CREATE}
        mode="update"
      />
      {book?.coverUrl && !hasCover ? (
        <Button
          type="button"
          variant="secondary"
          isLoading={isImporting}
          onClick={() => void addPublisherCover()}
        >
          Use the publisher&apos;s cover
        </Button>
      ) : null}
      {coverNote ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {coverNote}
        </p>
      ) : null}
    </div>
  );
}
