import {
  PASSWORD_HINT,
  profileUpdateSchema,
  type CurrentUser,
  type ProfileUpdateInput,
} from '@campus-books/common/account.schemas';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { SubmitButton } from '../../components/ui/button';
import { ErrorBlock } from '../../components/ui/error-block';
import { TextField } from '../../components/ui/form-field';
import { bodyResolver } from '../../lib/body-resolver';
import { fieldsOf } from '../../lib/form-fields';
import { ApiError } from '../../lib/api-client';
import { useAccountRules } from '../../lib/public-config';
import { useSession } from '../../lib/session';
import { AvatarUpload } from '../../components/uploads/avatar-upload';
import { useUpdateUser } from './api/update-user';
import { changedProfileFields, profileFormValues, type ProfileFormValues } from './profile-changes';

const FIELDS = [
  'username',
  'email',
  'password',
  'groupmelink',
  'avatar',
  'currentPassword',
] as const;

/** The profile form: validates and sends only the changed fields with the server's own schema. */
export function ProfileForm({
  user,
  onUpdated,
}: {
  user: CurrentUser;
  onUpdated(message: string): void;
}) {
  const { setUser } = useSession();
  const rules = useAccountRules();
  const update = useUpdateUser();
  const [notice, setNotice] = useState<string | null>(null);

  const resolver = useMemo(
    () =>
      bodyResolver(
        profileUpdateSchema(rules),
        (values: ProfileFormValues) => changedProfileFields(values, user),
        FIELDS,
      ),
    [rules, user],
  );

  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    formState: { errors },
  } = useForm<ProfileFormValues, unknown, ProfileUpdateInput>({
    resolver,
    defaultValues: profileFormValues(user),
  });

  const field = fieldsOf(register, errors);

  const avatar = useWatch({ control, name: 'avatar' });
  const isAvatarUnsaved = avatar !== (user.avatar ?? '');

  const onSubmit = (changes: ProfileUpdateInput) => {
    setNotice(null);
    if (Object.keys(changes).length === 0) {
      setNotice('Nothing to update: change a field first.');
      return;
    }
    update.mutate(
      { userId: user._id, changes },
      {
        onSuccess: ({ message, success: _success, ...updated }) => {
          setUser(updated);
          reset(profileFormValues(updated));
          // A new e-mail or password deserves more than a banner that fades after three seconds.
          if (changes.email !== undefined || changes.password !== undefined) {
            setNotice(
              message ||
                (changes.email !== undefined
                  ? `Check your new inbox: we sent a verification link to ${changes.email}. Your email changes once you open it.`
                  : 'Your password was changed.'),
            );
          }
          onUpdated('Profile updated');
        },
        onError: (error) => {
          if (!(error instanceof ApiError)) return;
          for (const fieldError of error.errors ?? []) {
            const field = FIELDS.find((name) => name === fieldError.field);
            if (field) setError(field, { message: fieldError.message });
          }
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
      <Controller
        control={control}
        name="avatar"
        render={({ field }) => (
          <AvatarUpload
            value={field.value === '' ? null : field.value}
            onChange={field.onChange}
            name={user.username}
          />
        )}
      />
      {isAvatarUnsaved ? (
        <p className="text-center text-sm text-slate-700">
          Press Update Profile to save your new avatar.
        </p>
      ) : null}
      {errors.avatar?.message ? (
        <p className="text-sm font-medium text-red-700">{errors.avatar.message}</p>
      ) : null}
      <TextField label="Username" autoComplete="nickname" {...field('username')} />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        hint={
          user.pendingEmail
            ? `Waiting for you to open the link sent to ${user.pendingEmail}.`
            : undefined
        }
        {...field('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={`Leave empty to keep your current password. A new one: ${PASSWORD_HINT}.`}
        {...field('password')}
      />
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        hint="Needed only to change your email or password."
        {...field('currentPassword')}
      />
      <TextField label="GroupMe link" type="url" inputMode="url" {...field('groupmelink')} />
      <SubmitButton isPending={update.isPending}>Update Profile</SubmitButton>
      {notice ? (
        <p role="status" className="rounded-md bg-blue-50 p-3 text-sm text-blue-900">
          {notice}
        </p>
      ) : null}
      {update.isError ? <ErrorBlock message={update.error.message} /> : null}
    </form>
  );
}
