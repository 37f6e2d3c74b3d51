import { useState, type ComponentType } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Button } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { DesktopStepOne, DesktopStepThree, DesktopStepTwo } from './desktop-steps';
import { MobileStepOne, MobileStepThree, MobileStepTwo } from './mobile-steps';

type Device = 'desktop' | 'mobile';

const STEPS: Record<Device, { text: string; Picture: ComponentType }[]> = {
  desktop: [
    { text: 'Click your profile icon at the bottom left of the window.', Picture: DesktopStepOne },
    { text: 'Open Profile.', Picture: DesktopStepTwo },
    {
      text: 'Scroll down to the Enable sharing toggle, turn it on, and copy the link.',
      Picture: DesktopStepThree,
    },
  ],
  mobile: [
    { text: 'Tap your profile icon at the bottom right of the screen.', Picture: MobileStepOne },
    { text: 'Tap the share button at the top right.', Picture: MobileStepTwo },
    { text: 'Tap Copy Link.', Picture: MobileStepThree },
  ],
};

function detectDevice(): Device {
  const coarse = window.matchMedia?.('(pointer: coarse)').matches ?? false;
  const mobileAgent = /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent);
  return coarse || mobileAgent ? 'mobile' : 'desktop';
}

export default function GroupmeInstructionsPage() {
  const [device, setDevice] = useState<Device>(detectDevice);
  const navigate = useNavigate();
  const location = useLocation();

  function goBack() {
    window.scrollTo(0, 0);
    // Opened directly (no page of ours before it): go to sign-up, where the link usually is.
    if (location.key === 'default') void navigate(paths.signUp);
    else void navigate(-1);
  }

  return (
    <div className="mx-auto max-w-3xl">
      <PageTitle title="Find your GroupMe link" />
      <h1 className="text-3xl font-bold text-slate-900">Where can I find my GroupMe link?</h1>
      <p className="mt-2 text-slate-700">
        Buyers contact you through your GroupMe profile link. Here is how to copy it.
      </p>
      <div
        role="group"
        aria-label="Device"
        className="mt-6 inline-flex rounded-lg bg-slate-200 p-1"
      >
        {(['desktop', 'mobile'] as const).map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={device === option}
            onClick={() => setDevice(option)}
            className={`rounded-md px-4 py-2 text-sm font-semibold capitalize ${
              device === option ? 'bg-white text-brand-900 shadow' : 'text-slate-800'
            }`}
          >
            {option}
          </button>
        ))}
      </div>
      <h2 className="sr-only">{device === 'desktop' ? 'On a computer' : 'On a phone'}</h2>
      <ol className="mt-6 grid gap-6 sm:grid-cols-3">
        {STEPS[device].map(({ text, Picture }, index) => (
          <li key={text} className="flex flex-col gap-3">
            <Picture />
            <p className="text-slate-900">
              <span className="font-bold">Step {index + 1}.</span> {text}
            </p>
          </li>
        ))}
      </ol>
      <Button variant="secondary" onClick={goBack} className="mt-8">
        Back
      </Button>
    </div>
  );
}
