/** The one error shape every failing API call answers with. */
export interface ApiErrorBody {
  success: false;
  statusCode: number;
  message: string;
  /** Per-field messages for validation errors (400). */
  errors?: { field: string; message: string }[];
  /** On a 429 of sign-in or sign-up: solve GET /api/auth/challenge and send it as `altcha`. */
  challengeRequired?: true;
}

/** Answer of calls that only confirm (sign-up, sign-out, delete, …). */
export interface ApiMessage {
  success: true;
  message: string;
}

/** GET /api/config: what the web app needs to validate like the server. */
export interface PublicConfig {
  schoolEmailDomain: string | null;
  groupmeLinkPrefix: string;
  donationUrl: string | null;
  publicUrl: string;
}
