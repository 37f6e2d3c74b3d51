/**
 * Campus configuration: everything specific to one university lives here, so another campus can adopt
 * the product by editing this one file. The defaults are the original campus's values.
 */

export const UNIVERSITY_NAME = 'University of Richmond';
export const PRODUCT_NAME = 'Campus Books';
export const FOOTER_CREDIT = 'Built by students for students · 2025';

/** School flags: the keys are part of the public API (spec section 7); labels are what students see. */
export const SCHOOLS = [
  { flag: 'Jepson', label: 'Jepson', filterLabel: 'Jepson' },
  { flag: 'Bschool', label: 'Bschool', filterLabel: 'Bschool' },
  { flag: 'Leadership', label: 'Leadership', filterLabel: 'Leadership' },
  { flag: 'ArtScience', label: 'Arts & Sciences', filterLabel: 'Arts & Sciences' },
  {
    flag: 'LawProfessional',
    label: 'Law and Professional Studies',
    filterLabel: 'Law and Prof Studies',
  },
] as const;

export type SchoolFlag = (typeof SCHOOLS)[number]['flag'];
export const SCHOOL_FLAGS = SCHOOLS.map((s) => s.flag) as [SchoolFlag, ...SchoolFlag[]];

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

export const MAJOR_VALUES: ReadonlySet<string> = new Set(MAJORS.map((m) => m.value));

export function majorLabel(value: string | null | undefined): string | undefined {
  return MAJORS.find((m) => m.value === value)?.label;
}
