import { Avatar } from '../avatar';
import { useId, useRef } from 'react';
import { imageVariantUrl } from '@campus-books/common/images';
import { UploadProgressList } from './upload-progress-list';
import { useImageUploads } from './use-image-uploads';

export interface AvatarUploadProps {
  value: string | null;
  onChange(url: string): void;
  /** Whose avatar: their initials stand in until there is a photo. */
  name?: string;
}

/** The profile picture: choosing a file uploads it at once; the new URL is saved with the profile. */
export function AvatarUpload({ value, onChange, name }: AvatarUploadProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const uploads = useImageUploads((url) => onChange(url));

  return (
    <div className="flex flex-col items-center gap-2">
      {value ? (
        <img
          src={imageVariantUrl(value, 320)}
          alt="Your avatar"
          width={96}
          height={96}
          className="size-24 rounded-full object-cover"
        />
      ) : (
        <Avatar name={name ?? ''} size="xl" />
      )}
      <label
        htmlFor={inputId}
        className="inline-flex min-h-11 cursor-pointer items-center rounded-lg border border-slate-400 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-100 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-blue-700"
      >
        {uploads.isBusy ? 'Uploading...' : 'Change avatar'}
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept="image/*"
          className="sr-only"
          disabled={uploads.isBusy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) uploads.start([file]);
            if (inputRef.current) inputRef.current.value = '';
          }}
        />
      </label>
      <div className="w-full max-w-sm">
        <UploadProgressList
          items={uploads.items}
          onPause={uploads.pause}
          onResume={uploads.resume}
          onCancel={uploads.cancel}
          onDismiss={uploads.dismiss}
        />
      </div>
    </div>
  );
}
