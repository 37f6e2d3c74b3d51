import {
  ACCENT,
  Avatar,
  Card,
  DesktopFrame,
  Highlight,
  INK,
  Illustration,
  LINE,
  MUTED,
  Pointer,
} from './illustration-parts';

export function DesktopStepOne() {
  return (
    <Illustration label="The GroupMe desktop app with the profile icon highlighted at the bottom left of the window">
      <DesktopFrame>
        <Avatar cx={38} cy={188} />
        <Highlight cx={38} cy={188} />
        <Pointer x={44} y={192} />
      </DesktopFrame>
    </Illustration>
  );
}

export function DesktopStepTwo() {
  return (
    <Illustration label="A menu opened above the profile icon with the Profile entry highlighted">
      <DesktopFrame>
        <Avatar cx={38} cy={188} />
        <Card x={28} y={116} width={96} height={60} />
        <rect x="32" y="121" width="88" height="18" rx="5" fill="#dce7fd" />
        <text x="40" y="134" fontSize="11" fontWeight="700" fill={ACCENT}>
          Profile
        </text>
        <text x="40" y="154" fontSize="11" fill={MUTED}>
          Settings
        </text>
        <text x="40" y="170" fontSize="11" fill={MUTED}>
          Log out
        </text>
        <Pointer x={92} y={128} />
      </DesktopFrame>
    </Illustration>
  );
}

export function DesktopStepThree() {
  return (
    <Illustration label="The profile panel scrolled to Enable sharing, with the toggle switched on and a Copy button beside the profile link">
      <DesktopFrame>
        <Card x={116} y={44} width={176} height={152} />
        <Avatar cx={204} cy={68} r={13} />
        <text x="128" y="104" fontSize="11" fontWeight="700" fill={INK}>
          Enable sharing
        </text>
        <rect x="248" y="94" width="30" height="16" rx="8" fill="#16a34a" />
        <circle cx="270" cy="102" r="6" fill="#fff" />
        <Highlight cx={263} cy={102} r={17} />
        <rect x="128" y="124" width="150" height="22" rx="6" fill="#f1f5f9" stroke={LINE} />
        <text x="134" y="139" fontSize="9" fill={MUTED}>
          groupme.com/contact/…
        </text>
        <rect x="216" y="154" width="62" height="22" rx="6" fill={ACCENT} />
        <text x="232" y="169" fontSize="11" fontWeight="700" fill="#fff">
          Copy
        </text>
        <Pointer x={250} y={166} />
      </DesktopFrame>
    </Illustration>
  );
}
