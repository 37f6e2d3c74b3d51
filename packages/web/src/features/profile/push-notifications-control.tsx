import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PUSH_MESSAGES } from '@campus-books/common/push.schemas';
import { CheckboxField } from '../../components/ui/form-field';
import { RequestError } from '../../components/ui/request-error';
import { useCampus } from '../../lib/campus';
import {
  PUSH_DEVICE_QUERY_KEY,
  readPushDeviceState,
  turnPushOff,
  turnPushOn,
  type PushDeviceState,
} from './push-notifications';

const HINT_ID = 'push-notifications-hint';

function Hint({ state }: { state: PushDeviceState | undefined }) {
  const { productName } = useCampus();
  const text = 'mt-2 text-sm text-slate-700';
  switch (state?.status) {
    case 'unsupported':
      return (
        <div id={HINT_ID} className={text}>
          <p>{PUSH_MESSAGES.notSupported}.</p>
          <p className="mt-1">
            On an iPhone or iPad, add {productName} to the Home Screen (Share, then “Add to Home
            Screen”) and open it from there. Your messages always wait for you in the inbox.
          </p>
        </div>
      );
    case 'blocked':
      return (
        <div id={HINT_ID} className={text}>
          <p>{PUSH_MESSAGES.denied}.</p>
          <p className="mt-1">
            Tap the icon left of the address (or open the browser’s settings for this site), set
            Notifications to Allow, then reload this page. On an iPhone: Settings, Notifications,{' '}
            {productName}.
          </p>
        </div>
      );
    case 'on':
      return (
        <p id={HINT_ID} className={text}>
          New messages and offers show on this device, even when {productName} is closed.
        </p>
      );
    default:
      return (
        <p id={HINT_ID} className={text}>
          Be told of new messages and offers on this device, even when {productName} is closed.
        </p>
      );
  }
}

/**
 * "Notifications on this device" (Web Push, issue 28): a switch, and when it is on, whether alert
 * matches are notified too. The browser asks its own permission the first time.
 */
export function PushNotificationsControl() {
  const queryClient = useQueryClient();
  const device = useQuery({
    queryKey: PUSH_DEVICE_QUERY_KEY,
    queryFn: ({ signal }) => readPushDeviceState(signal),
    staleTime: Infinity,
  });
  const change = useMutation({
    mutationFn: (next: { on: false } | { on: true; alerts: boolean }) =>
      next.on ? turnPushOn(next.alerts) : turnPushOff(),
    onSuccess: (state) => queryClient.setQueryData(PUSH_DEVICE_QUERY_KEY, state),
  });
  const state = device.data;
  const isOn = state?.status === 'on';
  const canSwitch = state?.status === 'on' || state?.status === 'off';
  const isBusy = device.isPending || change.isPending;

  return (
    <section aria-labelledby="push-title" className="rounded-lg border border-slate-200 p-4">
      <h2 id="push-title" className="text-lg font-bold text-slate-900">
        Notifications
      </h2>
      <button
        type="button"
        role="switch"
        aria-checked={isOn}
        aria-describedby={HINT_ID}
        aria-busy={isBusy || undefined}
        disabled={!canSwitch || isBusy}
        onClick={() => change.mutate(isOn ? { on: false } : { on: true, alerts: false })}
        className="mt-2 flex min-h-11 w-full items-center justify-between gap-3 rounded-lg py-1 text-left text-sm font-semibold text-slate-900 disabled:cursor-not-allowed disabled:opacity-70"
      >
        <span>Notifications on this device</span>
        <span
          aria-hidden="true"
          className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 transition-colors ${
            isOn ? 'border-brand-700 bg-brand-700' : 'border-slate-500 bg-slate-200'
          }`}
        >
          <span
            className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
              isOn ? 'translate-x-5' : 'translate-x-0.5'
            }`}
          />
        </span>
      </button>
      <Hint state={state} />
      {state?.status === 'on' ? (
        <CheckboxField
          className="mt-2"
          label="Also for alert matches"
          hint="A new listing that matches one of your alerts."
          // The choice shows at once; the server's answer confirms it (or the error says why not).
          checked={change.isPending && change.variables.on ? change.variables.alerts : state.alerts}
          disabled={isBusy}
          onChange={(e) => change.mutate({ on: true, alerts: e.target.checked })}
        />
      ) : null}
      <RequestError error={change.error ?? device.error} className="mt-2" />
    </section>
  );
}
