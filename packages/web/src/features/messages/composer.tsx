import {
  MESSAGE_MAX_LENGTH,
  sendMessageSchema,
  type SendMessageInput,
} from '@campus-books/common/conversation.schemas';
import { formatCount } from '@campus-books/common/display';
import { imageIdFromUrl } from '@campus-books/common/images';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/form-field';
import { RequestError } from '../../components/ui/request-error';
import { idempotencyKey, newIdempotencyKey } from '../../lib/idempotency-key';
import { PhotoAttach } from './photo-attach';

/**
 * The message box: the common schema's rule (up to 2,000 characters, no control or text-direction
 * characters; text required unless photos come with it) and its messages. Ctrl+Enter (⌘+Enter)
 * sends, as Send does.
 */
export function Composer({
  label = 'Message',
  submitLabel = 'Send',
  rows = 3,
  withPhotos = false,
  initialText = '',
  isPending,
  error,
  onSend,
}: {
  label?: string;
  submitLabel?: string;
  rows?: number;
  /** The photo button: up to four photos, uploaded as they are picked, sent with or without text. */
  withPhotos?: boolean;
  /** A text ready to send or edit (a first message tapped on the listing's page). */
  initialText?: string;
  isPending: boolean;
  error: Error | null;
  /** `key` stays the same until the message is sent: a retry after a failure is the same message. */
  onSend(text: string, key: string, done: () => void, photoUrls: string[]): void;
}) {
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    clearErrors,
    formState: { errors },
  } = useForm<SendMessageInput>({
    resolver: zodResolver(sendMessageSchema),
    defaultValues: { text: initialText },
  });
  // One per message typed: a new one once it is sent.
  const [nonce, setNonce] = useState(newIdempotencyKey);
  const [photoUrls, setPhotoUrls] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  // The photos are part of what the schema checks: with one, the text may stay empty.
  const attach = (urls: string[]) => {
    setPhotoUrls(urls);
    setValue(
      'photos',
      urls.map((url) => imageIdFromUrl(url) ?? url),
    );
    if (urls.length > 0) clearErrors('text');
  };
  const submit = handleSubmit((input) => {
    const text = input.text ?? '';
    onSend(
      text,
      // Other photos are another message: a retry sends the same key only for the same ones.
      idempotencyKey(nonce, [text, ...photoUrls].join('\n')),
      () => {
        setNonce(newIdempotencyKey());
        setPhotoUrls([]);
        reset({ text: '', photos: [] });
      },
      photoUrls,
    );
  });

  return (
    <form noValidate onSubmit={submit} className="space-y-2">
      <TextAreaField
        label={label}
        rows={rows}
        maxLength={MESSAGE_MAX_LENGTH + 100}
        hint={`Up to ${formatCount(MESSAGE_MAX_LENGTH)} characters. Never share your password.`}
        error={errors.text?.message}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void submit();
          }
        }}
        {...register('text')}
      />
      {withPhotos ? (
        <PhotoAttach value={photoUrls} onChange={attach} onBusyChange={setUploading} />
      ) : null}
      <RequestError error={error} />
      <Button
        type="submit"
        isLoading={isPending}
        disabled={uploading}
        loadingText="Sending..."
        className="w-full sm:w-auto"
      >
        {submitLabel}
      </Button>
    </form>
  );
}
