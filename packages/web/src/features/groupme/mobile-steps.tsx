import {
  ACCENT,
  Avatar,
  Highlight,
  INK,
  Illustration,
  LINE,
  MUTED,
  PhoneFrame,
  Pointer,
} from './illustration-parts';

function ChatList() {
  return (
    <g>
      <text x="118" y="36" fontSize="10" fontWeight="700" fill={INK}>
        Chats
      </text>
      {[52, 76, 100, 124].map((y) => (
        <g key={y}>
          <circle cx="126" cy={y} r="7" fill="#bcd1fb" />
          <rect x="138" y={y - 4} width="52" height="4" rx="2" fill={LINE} />
          <rect x="138" y={y + 2} width="36" height="4" rx="2" fill="#e2e8f0" />
        </g>
      ))}
    </g>
  );
}

function TabBar() {
  return (
    <g>
      <rect x="111" y="176" width="98" height="26" fill="#f1f5f9" />
      <rect x="124" y="184" width="10" height="10" rx="2" fill={MUTED} />
      <rect x="155" y="184" width="10" height="10" rx="2" fill={MUTED} />
    </g>
  );
}

export function MobileStepOne() {
  return (
    <Illustration label="The GroupMe phone app with the profile icon highlighted at the bottom right of the screen">
      <PhoneFrame>
        <ChatList />
        <TabBar />
        <Avatar cx={194} cy={189} r={7} />
        <Highlight cx={194} cy={189} r={12} />
        <Pointer x={198} y={194} touch />
      </PhoneFrame>
    </Illustration>
  );
}

export function MobileStepTwo() {
  return (
    <Illustration label="The profile screen with the share button highlighted at the top right">
      <PhoneFrame>
        <Avatar cx={160} cy={70} r={18} />
        <rect x="130" y="98" width="60" height="6" rx="3" fill={LINE} />
        <rect x="140" y="110" width="40" height="5" rx="2.5" fill="#e2e8f0" />
        <g transform="translate(190 28)">
          <path d="M0 8v7h12V8M6 0v10M2 4l4-4 4 4" fill="none" stroke={ACCENT} strokeWidth="1.8" />
        </g>
        <Highlight cx={196} cy={35} r={11} />
        <Pointer x={200} y={40} touch />
        <TabBar />
      </PhoneFrame>
    </Illustration>
  );
}

export function MobileStepThree() {
  return (
    <Illustration label="The share menu open at the bottom of the screen with Copy Link highlighted">
      <PhoneFrame>
        <rect x="111" y="18" width="98" height="184" rx="10" fill="#0f172a" fillOpacity="0.35" />
        <rect x="111" y="118" width="98" height="84" rx="10" fill="#fff" />
        <rect x="116" y="126" width="88" height="20" rx="5" fill="#dce7fd" />
        <text x="124" y="140" fontSize="10" fontWeight="700" fill={ACCENT}>
          Copy Link
        </text>
        <text x="124" y="162" fontSize="10" fill={MUTED}>
          Share via…
        </text>
        <text x="124" y="182" fontSize="10" fill={MUTED}>
          Cancel
        </text>
        <Pointer x={186} y={136} touch />
      </PhoneFrame>
    </Illustration>
  );
}
