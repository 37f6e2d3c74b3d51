/**
 * What a student does on a server-rendered page before the app has taken it over (hydrated it), held
 * and given back once it has (docs/decisions/012-server-rendering.md): taps on buttons and on the
 * app's own links, boxes ticked and text typed into fields. Without it a tap in that moment would do nothing,
 * and text typed into a field the app controls would not reach the app. Loaded by the page's entry
 * script (main.tsx), so it is small and imports nothing.
 */

/** What the browser cannot act on without the app: a tap on one of these is held. */
const APP_CONTROLS = 'button, [role="button"], summary';

type Held =
  | { kind: 'tap'; target: HTMLElement }
  | { kind: 'tick'; box: HTMLInputElement; checked: boolean }
  | {
      kind: 'text';
      field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
      value: string;
    };

const isCheckable = (target: EventTarget | null): target is HTMLInputElement =>
  target instanceof HTMLInputElement && (target.type === 'checkbox' || target.type === 'radio');

/** A link into the app, followed by a plain left click (not one for a new tab or a download). */
function appLink(event: MouseEvent, target: Element): HTMLAnchorElement | null {
  const link = target.closest('a[href]');
  if (!(link instanceof HTMLAnchorElement)) return null;
  const isPlainClick =
    event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
  const isSameTab = !link.target || link.target === '_self';
  return isPlainClick &&
    isSameTab &&
    !link.hasAttribute('download') &&
    link.origin === location.origin
    ? link
    : null;
}

function isField(
  target: EventTarget | null,
): target is HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement {
  return (
    (target instanceof HTMLInputElement && !isCheckable(target)) ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/**
 * Gives a field's text to the app as if typed now: the app's field may have been given its own
 * value when it took the page over, and React notices only a value that differs from the one it
 * last saw, so the value is set past React's tracking of it and an input event sent.
 */
function retype(field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string) {
  const prototypeSetter = Object.getOwnPropertyDescriptor(
    Object.getPrototypeOf(field),
    'value',
  )?.set;
  field.value = value === '' ? ' ' : ''; // through React's tracking: what it last saw differs
  prototypeSetter?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
  field.dispatchEvent(new Event('change', { bubbles: true }));
}

/**
 * Gives a box's tick to the app: the box is set back through React's tracking of it (to what React
 * last saw), then clicked, as the student did, so the app sees the change.
 */
function retick(box: HTMLInputElement, checked: boolean) {
  box.checked = !checked;
  box.click();
}

/**
 * Holds taps and typing until `hydratedEvent` is sent on window, then replays them in order.
 * `onFirstInput` is called at the first of them (the app is then wanted at once). `giveUp()` is for
 * an app that could not be loaded: nothing more is held, and a held link is followed as a plain one.
 */
export function holdEarlyInput(
  hydratedEvent: string,
  onFirstInput: () => void,
): { giveUp(): void } {
  const held: Held[] = [];
  /** True while a held action is given back (its own events pass). */
  let isReplaying = false;
  const onClick = (event: MouseEvent) => {
    if (isReplaying || !(event.target instanceof Element)) return;
    // A box ticks as the browser's own (the student sees it at once); the app is told later.
    if (isCheckable(event.target)) {
      held.push({ kind: 'tick', box: event.target, checked: event.target.checked });
      onFirstInput();
      return;
    }
    const control = event.target.closest(APP_CONTROLS) ?? appLink(event, event.target);
    if (!(control instanceof HTMLElement)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push({ kind: 'tap', target: control });
    onFirstInput();
  };
  const onInput = (event: Event) => {
    if (isReplaying || !isField(event.target)) return;
    held.push({ kind: 'text', field: event.target, value: event.target.value });
    onFirstInput();
  };
  const stopHolding = () => {
    document.removeEventListener('click', onClick, true);
    document.removeEventListener('input', onInput, true);
    document.removeEventListener('focusin', onFirstInput, true);
    window.removeEventListener(hydratedEvent, onHydrated);
  };
  async function replay() {
    // Each in a task of its own, as the student's own would be: the first is sent from inside
    // React's commit (where an update caused by a click is not taken), and a tap on Search must see
    // the page updated by the text typed before it. What the student does meanwhile is still held,
    // and given back after.
    for (let action = held.shift(); action; action = held.shift()) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      isReplaying = true;
      try {
        if (action.kind === 'tap' && action.target.isConnected) action.target.click();
        if (action.kind === 'text' && action.field.isConnected) retype(action.field, action.value);
        if (action.kind === 'tick' && action.box.isConnected) retick(action.box, action.checked);
      } finally {
        isReplaying = false;
      }
    }
    stopHolding();
  }
  document.addEventListener('click', onClick, true);
  document.addEventListener('input', onInput, true);
  document.addEventListener('focusin', onFirstInput, true);
  const onHydrated = () => void replay();
  window.addEventListener(hydratedEvent, onHydrated, { once: true });
  return {
    giveUp() {
      stopHolding();
      const links = held.flatMap((action) =>
        action.kind === 'tap' && action.target instanceof HTMLAnchorElement ? [action.target] : [],
      );
      held.length = 0;
      if (links[0]) location.assign(links[0].href);
    },
  };
}
