/** Progress of long work: a phase, how far it got, and optionally of how much. */
export interface ProgressEvent {
  phase: string;
  done: number;
  total?: number;
  bytes?: number;
}

export type Progress = (event: ProgressEvent) => void;

export const noProgress: Progress = () => {};

/**
 * Progress lines on stderr (stdout stays for the summary), at most one a second per phase plus the
 * last one of each phase.
 */
export function progressOnStderr(
  write: (line: string) => void = (l) => process.stderr.write(l),
): Progress {
  let lastPhase = '';
  let lastAt = 0;
  return ({ phase, done, total, bytes }) => {
    const now = Date.now();
    const finished = total !== undefined && done >= total;
    if (phase === lastPhase && now - lastAt < 1000 && !finished) return;
    lastPhase = phase;
    lastAt = now;
    const size = bytes === undefined ? '' : `${(bytes / 1024 ** 2).toFixed(1)} MB`;
    if (total === undefined && bytes !== undefined) {
      write(`  ${phase}: ${size}\n`); // a stream of unknown length: only bytes so far
      return;
    }
    const of = total === undefined ? '' : `/${total}`;
    const percent = total ? ` (${Math.floor((done / total) * 100)}%)` : '';
    write(`  ${phase}: ${done}${of}${percent}${size ? `, ${size}` : ''}\n`);
  };
}
