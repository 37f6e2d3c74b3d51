/** A person's initials for an avatar without a photo: "Maya P." → "MP". */
export function initials(name: string): string {
  const letters = name
    .split(/[\s._-]+/)
    .filter(Boolean)
    .map((part) => [...part][0]!.toUpperCase());
  return letters.length > 1 ? letters[0]! + letters[letters.length - 1]! : (letters[0] ?? '?');
}
