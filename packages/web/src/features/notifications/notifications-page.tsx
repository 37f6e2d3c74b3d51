import {
  NOTIFICATION_CHANNELS_OF,
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KINDS,
  notificationSettingsSchema,
  type NotificationChannel,
  type NotificationSettings,
} from '@campus-books/common/notification.schemas';
import { useState, type ComponentProps } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Banner } from '../../components/ui/banner';
import { SubmitButton } from '../../components/ui/button';
import { ErrorBlock } from '../../components/ui/error-block';
import { RequestError } from '../../components/ui/request-error';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { bodyResolver } from '../../lib/body-resolver';
import {
  useNotificationSettings,
  useSaveNotificationSettings,
} from './api/notification-settings-api';
import {
  notificationFormValues,
  notificationSettingsBody,
  type NotificationFormValues,
} from './notification-form-values';

const CHANNEL_LABELS: Record<NotificationChannel, string> = { mail: 'E-mail', push: 'Push' };

const resolver = bodyResolver(notificationSettingsSchema, notificationSettingsBody, [
  'kinds',
  'quietHours',
]);

/** A checkbox whose whole row (at least 44 px high) is its label. */
function CheckRow(props: { label: string } & ComponentProps<'input'>) {
  const { label, ...input } = props;
  return (
    <label className="flex min-h-11 min-w-11 cursor-pointer items-center gap-2 text-sm font-medium text-slate-800">
      <input
        type="checkbox"
        className="size-5 rounded border-slate-500 accent-brand-700"
        {...input}
      />
      {label}
    </label>
  );
}

function NotificationsForm({
  settings,
  timeZone,
}: {
  settings: NotificationSettings;
  timeZone: string;
}) {
  const save = useSaveNotificationSettings();
  const [saved, setSaved] = useState<string | null>(null);
  const { register, handleSubmit, control, formState } = useForm<
    NotificationFormValues,
    unknown,
    NotificationSettings
  >({ resolver, defaultValues: notificationFormValues(settings) });
  const isQuiet = useWatch({ control, name: 'isQuiet' });
  const quietError = formState.errors.quietHours?.message;

  return (
    <form
      noValidate
      className="mt-6 space-y-6"
      onSubmit={handleSubmit((body) => {
        setSaved(null);
        save.mutate(body, { onSuccess: (answer) => setSaved(answer.message) });
      })}
    >
      <div className="space-y-3">
        {NOTIFICATION_KINDS.map((kind) => (
          <fieldset key={kind} className="rounded-lg border border-slate-200 px-4 py-2">
            <legend className="px-1 text-base font-bold text-slate-900">
              {NOTIFICATION_KIND_LABELS[kind]}
            </legend>
            <div className="flex flex-wrap items-center gap-x-6">
              {NOTIFICATION_CHANNELS_OF[kind].map((channel) => (
                <CheckRow
                  key={channel}
                  label={CHANNEL_LABELS[channel]}
                  aria-label={`${NOTIFICATION_KIND_LABELS[kind]}: ${CHANNEL_LABELS[channel]}`}
                  {...register(`kinds.${kind}.${channel}`)}
                />
              ))}
              {NOTIFICATION_CHANNELS_OF[kind].length === 1 ? (
                <span className="text-sm text-slate-700">
                  {kind === 'offers'
                    ? 'By e-mail, offers come with the messages’ mail.'
                    : 'There is no push of this kind.'}
                </span>
              ) : null}
            </div>
          </fieldset>
        ))}
      </div>

      <fieldset className="rounded-lg border border-slate-200 px-4 py-2">
        <legend className="px-1 text-base font-bold text-slate-900">Quiet hours</legend>
        <CheckRow label="Hold mails and pushes during quiet hours" {...register('isQuiet')} />
        <p className="text-sm text-slate-700">
          Times on the campus&rsquo;s clock ({timeZone}). What comes meanwhile arrives as one mail
          and one push when they end.
        </p>
        {isQuiet ? (
          <div className="mt-2 flex flex-wrap gap-4">
            {(['start', 'end'] as const).map((end) => (
              <label key={end} className="flex flex-col text-sm font-medium text-slate-800">
                {end === 'start' ? 'From' : 'Until'}
                <input
                  type="time"
                  className="mt-1 min-h-11 rounded border border-slate-500 px-2"
                  aria-invalid={quietError ? true : undefined}
                  aria-describedby={quietError ? 'quiet-hours-error' : undefined}
                  {...register(`quietHours.${end}`)}
                />
              </label>
            ))}
          </div>
        ) : null}
        {quietError ? (
          <p id="quiet-hours-error" role="alert" className="mt-2 text-sm text-red-700">
            {quietError}
          </p>
        ) : null}
      </fieldset>

      {formState.errors.root?.message ? (
        <ErrorBlock message={formState.errors.root.message} />
      ) : null}
      <RequestError error={save.error} />
      {saved ? <Banner tone="green" message={saved} /> : null}
      <SubmitButton isPending={save.isPending} loadingText="Saving...">
        Save my choices
      </SubmitButton>
    </form>
  );
}

/** /notifications: per kind, mail and push; quiet hours in the campus's time zone (issue 44). */
export default function NotificationsPage() {
  const settings = useNotificationSettings();
  return (
    <section className="mx-auto w-full max-w-md py-2">
      <PageTitle title="What reaches you" />
      <h1 className="text-center text-2xl font-bold text-slate-900 sm:text-3xl">
        What reaches you
      </h1>
      <p className="mt-2 text-sm text-slate-700">
        For each kind, choose e-mail, push to your devices, both or neither. Push reaches the
        devices you turned notifications on for, on your{' '}
        <Link to={paths.profile} className="link">
          profile
        </Link>
        .
      </p>
      {settings.data ? (
        <NotificationsForm settings={settings.data} timeZone={settings.data.timeZone} />
      ) : settings.error ? (
        <RequestError error={settings.error} />
      ) : (
        <Loading />
      )}
    </section>
  );
}
