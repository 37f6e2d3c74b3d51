// The campus's majors (part of its configuration with campus.ts; a file of its own so that pages
// which only name the product or the schools do not load the list).

/** Turns a display label into its stored value: punctuation and dashes dropped, spaces folded. */
function toStoredValue(label: string): string {
  return label
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const MAJOR_LABELS = [
  'Accounting',
  'American Studies',
  'Ancient Mediterranean Studies',
  'Anthropology',
  'Art History',
  'Art - Visual Media and Arts Practice',
  'Biochemistry and Molecular Biology',
  'Biology',
  'Business Administration - Business Analytics',
  'Business Administration - Entrepreneurship',
  'Business Administration - Finance',
  'Business Administration - International Business',
  'Business Administration - Management',
  'Business Administration - Marketing',
  'Business Administration - Real Estate',
  'Business Administration - Supply Chain Management',
  'Chemistry',
  'Chinese Studies',
  'Classical Civilization',
  'Cognitive Science',
  'Computer Science',
  'Criminology and Sociology',
  'Dance',
  'Data Science',
  'Economics (Arts & Sciences)',
  'Economics (Business)',
  'Education - Elementary',
  'Education - Secondary',
  'Education - Special Education',
  'Education Studies',
  'English',
  'English - Creative Writing',
  'English - Literature',
  'English and Theatre',
  'Environmental Studies',
  'Film Studies',
  'French',
  'Geography',
  'German Studies',
  'Global Studies - Development and Change',
  'Global Studies - Politics and Governance',
  'Global Studies - Society, Culture and Identity',
  'Global Studies - Sustainability',
  'Greek',
  'Healthcare Studies',
  'History',
  'Human Resource Management',
  'Information Systems',
  'Interdisciplinary Studies',
  'International Studies - Africa',
  'International Studies - Asia',
  'International Studies - Europe',
  'International Studies - Latin America',
  'International Studies - Middle East',
  'Italian Studies',
  'Japanese Studies',
  'Jewish Studies',
  'Journalism',
  'LALIS',
  'Latin',
  'Latino and Latin American Studies',
  'Law and Liberal Arts',
  'Leadership Studies',
  'Liberal Arts',
  'Linguistics',
  'Mathematical Economics',
  'Mathematics',
  'Media and Communication Studies',
  'Music',
  'Neuroscience',
  'Nonprofit Management',
  'Paralegal Studies',
  'Philosophy',
  'Physics',
  'Political Science',
  'PPEL',
  'Pre-Law',
  'Pre-Medicine',
  'Psychology',
  'Public Health',
  'Religious Studies',
  'Rhetoric and Communication Studies',
  'Russian Studies',
  'Sociology',
  'Spanish',
  'Sport Management',
  'Statistics',
  'Theatre',
  'Urban Studies',
  'WGSS',
] as const;

/** Majors as the form shows them (label) and as listings store them (value). */
export const MAJORS: readonly { label: string; value: string }[] = MAJOR_LABELS.map((label) => ({
  label,
  value: toStoredValue(label),
}));

/**
 * What students type for a major (lower case): abbreviations and short names. Words of the labels
 * already match by their beginnings ('comp sci', 'econ', 'bio'); these cover the rest ('CS').
 */
export const MAJOR_ALIASES: Readonly<Record<string, readonly string[]>> = {
  Accounting: ['acct', 'accounting'],
  'Biochemistry and Molecular Biology': ['biochem', 'bmb'],
  Biology: ['bio', 'bio sci'],
  'Business Administration - Business Analytics': ['business', 'ba', 'bschool'],
  'Business Administration - Entrepreneurship': ['business', 'ba', 'bschool'],
  'Business Administration - Finance': ['business', 'ba', 'bschool', 'fin'],
  'Business Administration - International Business': ['business', 'ba', 'bschool', 'ib'],
  'Business Administration - Management': ['business', 'ba', 'bschool', 'mgmt'],
  'Business Administration - Marketing': ['business', 'ba', 'bschool', 'mktg'],
  'Business Administration - Real Estate': ['business', 'ba', 'bschool'],
  'Business Administration - Supply Chain Management': ['business', 'ba', 'bschool', 'scm'],
  Chemistry: ['chem'],
  'Cognitive Science': ['cog sci', 'cogsci'],
  'Computer Science': ['cs', 'compsci', 'comp sci', 'cmsc'],
  'Criminology and Sociology': ['crim'],
  'Data Science': ['ds'],
  'Economics (Arts & Sciences)': ['econ', 'economics'],
  'Economics (Business)': ['econ', 'economics'],
  'Environmental Studies': ['enviro', 'envs'],
  'Healthcare Studies': ['health'],
  'Information Systems': ['is', 'mis'],
  'Mathematical Economics': ['math econ'],
  Mathematics: ['math', 'maths'],
  'Media and Communication Studies': ['comm', 'communications'],
  Neuroscience: ['neuro'],
  'Political Science': ['poli sci', 'polisci', 'plsc', 'government'],
  'Pre-Medicine': ['premed', 'pre med'],
  Psychology: ['psych', 'psyc'],
  'Rhetoric and Communication Studies': ['rhcs', 'comm'],
  Statistics: ['stats', 'stat'],
  WGSS: ["women's studies", 'gender studies'],
};

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s']/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);

/**
 * The majors a student means by `term`, best first: an alias typed in full ('cs', 'econ'), then
 * labels whose every typed word begins a word of the label or of an alias ('comp sci' finds
 * Computer Science), in the list's order. An empty term gives every major.
 */
export function findMajors(term: string): { label: string; value: string }[] {
  const typed = words(term);
  if (typed.length === 0) return [...MAJORS];
  const joined = typed.join(' ');
  const exact: { label: string; value: string }[] = [];
  const partial: { label: string; value: string }[] = [];
  for (const major of MAJORS) {
    const aliases = MAJOR_ALIASES[major.label] ?? [];
    if (aliases.some((alias) => words(alias).join(' ') === joined)) {
      exact.push(major);
      continue;
    }
    const known = [...words(major.label), ...aliases.flatMap(words)];
    if (typed.every((word) => known.some((k) => k.startsWith(word)))) partial.push(major);
  }
  return [...exact, ...partial];
}

export const MAJOR_VALUES: ReadonlySet<string> = new Set(MAJORS.map((m) => m.value));

export function majorLabel(value: string | null | undefined): string | undefined {
  return MAJORS.find((m) => m.value === value)?.label;
}
