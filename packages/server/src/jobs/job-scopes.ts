import type { JobScope } from './job-options';

/**
 * The scopes a job runner serves (decision 024: the default campus and each campus of the
 * directory) and what it knows of each, so that an idle runner asks nothing of thousands of them at
 * each poll: when its next job falls due, remembered after each look (an early guess is harmless,
 * the look finds the later time), and whether an enqueue's NOTIFY named it. Every scope is looked
 * at once per idle scan all the same: a job written without a NOTIFY heard here (a NOTIFY lost
 * while the LISTEN connection was away wakes every scope; a recurring slot moved earlier by
 * another server's start) waits at most that long.
 */
export class JobScopeSet {
  readonly #all: JobScope[] = [];
  readonly #bySchema = new Map<string, JobScope>();
  /** When each scope's next job is due (ms), as its last look found it; absent: look. */
  readonly #dueAt = new Map<JobScope, number>();
  readonly #woken = new Set<JobScope>();
  #everyOne = true;
  #lastScanAt = Number.NEGATIVE_INFINITY;

  constructor(scopes: readonly JobScope[]) {
    for (const scope of scopes) this.add(scope);
  }

  /** Every scope, in the order they were added. */
  get all(): readonly JobScope[] {
    return this.#all;
  }

  /** Adds a scope (a campus added while running); false when one has its key already. */
  add(scope: JobScope): boolean {
    if (this.#all.some((s) => s.key === scope.key)) return false;
    this.#all.push(scope);
    this.#bySchema.set(scope.schema ?? 'public', scope);
    return true;
  }

  /** Removes the scope with this key (a campus no longer registered); the scope, if there was one. */
  remove(key: string): JobScope | undefined {
    const index = this.#all.findIndex((s) => s.key === key);
    if (index < 0) return undefined;
    const [scope] = this.#all.splice(index, 1);
    this.#bySchema.delete(scope!.schema ?? 'public');
    this.#dueAt.delete(scope!);
    this.#woken.delete(scope!);
    return scope;
  }

  byKey(key: string): JobScope | undefined {
    return this.#all.find((s) => s.key === key);
  }

  /** The scope whose jobs table is in this schema (a NOTIFY's), if this runner serves it. */
  bySchema(schema: string): JobScope | undefined {
    return this.#bySchema.get(schema);
  }

  /** The next look visits this scope (an enqueue's NOTIFY named it). */
  wake(scope: JobScope): void {
    this.#woken.add(scope);
  }

  /** The next look visits every scope (a lost NOTIFY, `runDue()`). */
  wakeAll(): void {
    this.#everyOne = true;
  }

  /** What a look found: the scope's next job is due at `dueAt` (ms; null: it has none). */
  remember(scope: JobScope, dueAt: number | null): void {
    this.#dueAt.set(scope, dueAt ?? Number.POSITIVE_INFINITY);
  }

  /** Nothing is known of the scope's jobs any more (its look failed): the next look visits it. */
  forget(scope: JobScope): void {
    this.#dueAt.delete(scope);
  }

  /**
   * The scopes a look at `now` visits: all of them when woken so or once per `idleScanMs`, else
   * those woken, those whose next job is due and those not looked at yet. Each is then unwoken.
   */
  toVisit(now: number, idleScanMs: number): JobScope[] {
    let chosen: JobScope[];
    if (this.#everyOne || now - this.#lastScanAt >= idleScanMs) {
      this.#everyOne = false;
      this.#lastScanAt = now;
      chosen = [...this.#all];
    } else {
      chosen = this.#all.filter((scope) => {
        const due = this.#dueAt.get(scope);
        return this.#woken.has(scope) || due === undefined || due <= now;
      });
    }
    this.#woken.clear();
    return chosen;
  }
}
