import {
  listingCreateSchema,
  listingUpdateSchema,
  type ListingCreateInput,
} from '@campus-books/common/listing.schemas';
import { MAX_IMAGES_ON_CREATE, MAX_IMAGES_PER_LISTING } from '@campus-books/common/constants';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { MajorSelect } from '../../components/major-select';
import { Button } from '../../components/ui/button';
import { TextAreaField, TextField } from '../../components/ui/form-field';
import { ApiError } from '../../lib/api-client';
import { useCampus } from '../../lib/campus';
import { useLeaveWarning } from '../../lib/use-leave-warning';
import { ImagePicker } from '../../components/uploads/image-picker';
import { BookFields } from './book-fields';
import { ConditionChoice, SchoolChoices } from './listing-form-choices';
import type { ListingFormValues } from './listing-form-values';

// The update schema adds the discount rule (update only, spec section 5) and allows 6 images; its
// input and output match create's, which the annotation checks.
const RESOLVERS: Record<
  'create' | 'update',
  Resolver<ListingFormValues, unknown, ListingCreateInput>
> = { create: zodResolver(listingCreateSchema), update: zodResolver(listingUpdateSchema) };

/**
 * Whether the server's error on a field shows beside that field's input (true) or only in the block
 * under the form (false: the form has no input of its own for it). Every field of the schema is
 * named, so a new one is a compile error here until it is decided.
 */
const ERROR_BESIDE_INPUT = {
  name: true,
  courseNumber: true,
  description: true,
  address: true,
  pickupLocation: false,
  condition: true,
  regularPrice: true,
  discountPrice: false,
  major: true,
  type: false,
  schools: false,
  imageUrls: true,
  isbn: true,
  authors: true,
  edition: true,
  subject: true,
  publisherCover: true,
} satisfies Record<keyof ListingFormValues, boolean>;

const besideInput = (field: string): field is keyof ListingFormValues =>
  Object.hasOwn(ERROR_BESIDE_INPUT, field) && ERROR_BESIDE_INPUT[field as keyof ListingFormValues];

/**
 * The create and update form: the server's schema validates it, the server's message shows in red.
 * It submits once at a time (a double click sends one request), and asks before the tab is closed or
 * reloaded while an upload runs or a change is unsaved. `onChange` hears every edit (the draft).
 */
export function ListingForm({
  mode,
  defaultValues,
  onSubmit,
  onChange,
  isSubmitting,
  submitError,
}: {
  mode: 'create' | 'update';
  defaultValues: ListingFormValues;
  onSubmit(values: ListingCreateInput): void;
  onChange?(values: ListingFormValues): void;
  isSubmitting: boolean;
  submitError: Error | null;
}) {
  const {
    register,
    handleSubmit,
    control,
    setError,
    subscribe,
    setValue,
    getValues,
    formState: { errors, isDirty, isSubmitting: isValidating },
  } = useForm<ListingFormValues, unknown, ListingCreateInput>({
    resolver: RESOLVERS[mode],
    defaultValues,
  });
  const { meetupSpots } = useCampus();
  const [isUploading, setIsUploading] = useState(false);
  useLeaveWarning(isUploading || isDirty);

  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  useEffect(
    () =>
      subscribe({
        formState: { values: true },
        callback: ({ values }) => onChangeRef.current?.(values),
      }),
    [subscribe],
  );

  // A second click lands before React has re-rendered the button as disabled: refuse it here.
  const submitting = useRef(false);
  useEffect(() => {
    if (!isSubmitting) submitting.current = false;
  }, [isSubmitting, submitError]);
  function submit(event: FormEvent<HTMLFormElement>) {
    void handleSubmit((values) => {
      if (submitting.current) return;
      submitting.current = true;
      onSubmit(values);
    })(event);
  }

  // Field errors the server found land next to their fields too.
  useEffect(() => {
    if (!(submitError instanceof ApiError)) return;
    for (const fieldError of submitError.errors ?? []) {
      if (besideInput(fieldError.field)) {
        setError(fieldError.field, { message: fieldError.message });
      }
    }
  }, [submitError, setError]);

  const isCreate = mode === 'create';
  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <BookFields {...{ register, control, setValue, getValues, errors }} />
      <TextField label="Name" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Course Number"
        placeholder="e.g. 201"
        error={errors.courseNumber?.message}
        {...register('courseNumber')}
      />
      <TextAreaField
        label="Description"
        error={errors.description?.message}
        {...register('description')}
      />
      <TextField
        label="Address"
        hint="Where a buyer can pick up the book: type a place, or choose one of the campus's safe meetup spots."
        autoComplete="off"
        list="meetup-spots"
        error={errors.address?.message}
        {...register('address')}
      />
      <datalist id="meetup-spots">
        {meetupSpots.map((spot) => (
          <option key={spot.id} value={spot.name}>
            {spot.note ?? spot.place}
          </option>
        ))}
      </datalist>
      <ConditionChoice register={register} error={errors.condition?.message} />
      <SchoolChoices control={control} />
      <Controller
        control={control}
        name="major"
        render={({ field }) => (
          <MajorSelect
            label="Major"
            emptyLabel="Not specified"
            value={field.value ?? ''}
            onChange={field.onChange}
            error={errors.major?.message}
          />
        )}
      />
      <TextField
        label="Regular price ($)"
        type="number"
        inputMode="decimal"
        min={0}
        max={10_000_000}
        step="0.01"
        error={errors.regularPrice?.message}
        {...register('regularPrice', { valueAsNumber: true })}
      />
      <Controller
        control={control}
        name="imageUrls"
        render={({ field }) => (
          <ImagePicker
            id="listing-images"
            value={field.value}
            onChange={field.onChange}
            maxImages={isCreate ? MAX_IMAGES_ON_CREATE : MAX_IMAGES_PER_LISTING}
            mode={mode}
            onBusyChange={setIsUploading}
            isRequired
            error={errors.imageUrls?.message ?? errors.imageUrls?.root?.message}
          />
        )}
      />
      <Button
        type="submit"
        className="w-full"
        isLoading={isSubmitting || isValidating}
        loadingText={isCreate ? 'Creating...' : 'Updating...'}
      >
        {isCreate ? 'Create listing' : 'Update listing'}
      </Button>
      {submitError ? (
        <p role="alert" className="font-medium text-red-700">
          {submitError.message}
        </p>
      ) : null}
    </form>
  );
}
