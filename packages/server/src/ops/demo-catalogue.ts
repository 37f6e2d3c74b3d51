import { activeCampus } from '@campus-books/common/active-campus';

/** The books of the demo campus: what students of its majors really carry around. */

export interface DemoBook {
  title: string;
  authors: string;
  subject: string;
  courseNumber: string;
  /** Stored value of a major of the campus (none on a campus without it). */
  major: string;
  edition?: string;
  /** Typical new price in dollars; listings ask a fraction of it. */
  price: number;
}

const major = (label: string): string => {
  // A campus without this major files the book under none (the demo runs on any campus).
  return activeCampus().majors.find((m) => m.label === label)?.value ?? '';
};

/**
 * One book a line: title | authors | course (subject and number) | major (its label in the default campus) |
 * edition ("-" when the book has none) | typical new price in dollars.
 */
const BOOKS = `
Calculus: Early Transcendentals | James Stewart | MATH 211 | Mathematics | 9th | 180
Calculus II Workbook | Hughes-Hallett | MATH 212 | Mathematics | 7th | 95
Linear Algebra and Its Applications | David C. Lay | MATH 245 | Mathematics | 6th | 160
Introduction to Real Analysis | Bartle and Sherbert | MATH 320 | Mathematics | 4th | 140
Abstract Algebra | Dummit and Foote | MATH 330 | Mathematics | 3rd | 150
Introduction to Probability | Blitzstein and Hwang | STAT 230 | Statistics | 2nd | 90
The Practice of Statistics | Moore and McCabe | STAT 101 | Statistics | - | 120
Campbell Biology | Urry, Cain and Wasserman | BIOL 199 | Biology | 12th | 210
Molecular Biology of the Cell | Alberts et al. | BIOL 225 | Biochemistry and Molecular Biology | 7th | 190
Principles of Genetics | Snustad and Simmons | BIOL 208 | Biology | 6th | 170
Ecology: Concepts and Applications | Manuel Molles | BIOL 300 | Biology | - | 130
Organic Chemistry | Paula Bruice | CHEM 205 | Chemistry | 8th | 230
Chemistry: The Central Science | Brown, LeMay and Bursten | CHEM 141 | Chemistry | 14th | 200
Physical Chemistry | Atkins and de Paula | CHEM 309 | Chemistry | 11th | 220
Lehninger Principles of Biochemistry | Nelson and Cox | CHEM 326 | Biochemistry and Molecular Biology | 8th | 240
University Physics | Young and Freedman | PHYS 131 | Physics | 15th | 210
Modern Physics | Tipler and Llewellyn | PHYS 301 | Physics | 6th | 150
Introduction to Electrodynamics | David J. Griffiths | PHYS 305 | Physics | 4th | 110
Principles of Microeconomics | N. Gregory Mankiw | ECON 101 | Economics (Arts & Sciences) | 9th | 180
Principles of Macroeconomics | N. Gregory Mankiw | ECON 102 | Economics (Arts & Sciences) | 9th | 180
Intermediate Microeconomics | Hal Varian | ECON 271 | Economics (Business) | 9th | 160
Introductory Econometrics | Jeffrey Wooldridge | ECON 370 | Mathematical Economics | 7th | 190
Financial Accounting | Kimmel, Weygandt and Kieso | ACCT 201 | Accounting | 10th | 200
Managerial Accounting | Garrison and Noreen | ACCT 202 | Accounting | 17th | 190
Corporate Finance | Berk and DeMarzo | FIN 360 | Business Administration - Finance | 5th | 220
Investments | Bodie, Kane and Marcus | FIN 363 | Business Administration - Finance | 12th | 210
Marketing Management | Kotler and Keller | MKT 320 | Business Administration - Marketing | 16th | 180
Consumer Behavior | Michael Solomon | MKT 330 | Business Administration - Marketing | 13th | 150
Organizational Behavior | Robbins and Judge | MGMT 340 | Business Administration - Management | 18th | 170
Operations and Supply Chain Management | Jacobs and Chase | BUAD 301 | Business Administration - Supply Chain Management | 16th | 190
Business Analytics | Evans | BUAD 205 | Business Administration - Business Analytics | 3rd | 160
Introduction to Algorithms | Cormen, Leiserson, Rivest and Stein | CMSC 315 | Computer Science | 4th | 120
Computer Systems: A Programmer’s Perspective | Bryant and O’Hallaron | CMSC 301 | Computer Science | 3rd | 150
Java Software Solutions | Lewis and Loftus | CMSC 150 | Computer Science | 9th | 130
Python for Data Analysis | Wes McKinney | DSCI 101 | Data Science | 3rd | 60
An Introduction to Statistical Learning | James, Witten, Hastie and Tibshirani | DSCI 330 | Data Science | 2nd | 80
Psychology | David G. Myers | PSYC 100 | Psychology | 13th | 150
Cognitive Psychology | E. Bruce Goldstein | PSYC 320 | Cognitive Science | 5th | 140
Research Methods in Psychology | Beth Morling | PSYC 200 | Psychology | 4th | 110
Neuroscience: Exploring the Brain | Bear, Connors and Paradiso | BIOL 350 | Neuroscience | 4th | 190
Sociology: A Down-to-Earth Approach | James Henslin | SOC 101 | Sociology | 14th | 140
Criminology Today | Frank Schmalleger | SOC 250 | Criminology and Sociology | 9th | 130
Cultural Anthropology | Conrad Kottak | ANTH 102 | Anthropology | 18th | 120
The American Pageant | Kennedy and Cohen | HIST 120 | History | 17th | 160
A History of Western Society | McKay et al. | HIST 101 | History | 13th | 150
Give Me Liberty! | Eric Foner | AMST 201 | American Studies | 6th | 110
American Government: Power and Purpose | Lowi, Ginsberg and Shepsle | PLSC 220 | Political Science | 16th | 130
Essentials of Comparative Politics | Patrick O’Neil | PLSC 240 | Political Science | 7th | 100
The Norton Anthology of English Literature | Stephen Greenblatt | ENGL 211 | English - Literature | 10th | 95
The Norton Introduction to Literature | Kelly J. Mays | ENGL 103 | English | 14th | 90
The Making of a Poem | Strand and Boland | ENGL 383 | English - Creative Writing | - | 25
They Say / I Say | Graff and Birkenstein | RHCS 101 | Rhetoric and Communication Studies | 5th | 30
Media and Culture | Campbell, Martin and Fabos | JOUR 200 | Journalism | 13th | 110
Introduction to Philosophy | Perry, Bratman and Fischer | PHIL 101 | Philosophy | 8th | 90
Ethics: Theory and Practice | Jacques Thiroux | PHIL 260 | PPEL | 11th | 100
World Religions Today | Esposito, Fasching and Lewis | RELG 201 | Religious Studies | 6th | 95
Leadership: Theory and Practice | Peter Northouse | LDST 102 | Leadership Studies | 9th | 85
The Leader’s Companion | J. Thomas Wren | LDST 205 | Leadership Studies | - | 40
Vistas: Introducción a la lengua española | Blanco and Donley | SPAN 101 | Spanish | 6th | 190
Imagina: Español sin barreras | José A. Blanco | SPAN 221 | Spanish | 4th | 170
Promenades: À travers le monde francophone | Mitschke and Tano | FREN 121 | French | 4th | 160
Wheelock’s Latin | Frederic M. Wheelock | LATN 101 | Latin | 7th | 30
Environmental Science | G. Tyler Miller | ENVR 201 | Environmental Studies | 16th | 150
Human Geography | Fouberg and Murphy | GEOG 210 | Geography | 12th | 120
Gardner’s Art through the Ages | Fred S. Kleiner | ARTH 221 | Art History | 16th | 170
Tonal Harmony | Kostka and Payne | MUS 111 | Music | 8th | 140
The Norton Anthology of Drama | Gainor, Garner and Puchner | THTR 201 | Theatre | 3rd | 80
Foundations of Education | Ornstein and Levine | EDUC 200 | Education Studies | 14th | 130
`;

function parseBook(line: string): DemoBook {
  const [title, authors, course, majorLabel, edition, price, ...rest] = line.split(' | ');
  const [subject, courseNumber] = course?.split(' ') ?? [];
  if (
    !title ||
    !authors ||
    !subject ||
    !courseNumber ||
    !majorLabel ||
    !edition ||
    !price ||
    rest.length
  )
    throw new Error(`demo book not in the table's shape: ${line}`);
  return {
    title,
    authors,
    subject,
    courseNumber,
    major: major(majorLabel),
    edition: edition === '-' ? undefined : edition,
    price: Number(price),
  };
}

export const DEMO_BOOKS: readonly DemoBook[] = BOOKS.trim().split('\n').map(parseBook);

export const DEMO_SELLERS: readonly { firstName: string; lastName: string }[] = [
  { firstName: 'Maya', lastName: 'Patel' },
  { firstName: 'Jordan', lastName: 'Lee' },
  { firstName: 'Sofia', lastName: 'Ramirez' },
  { firstName: 'Ethan', lastName: 'Brooks' },
  { firstName: 'Aisha', lastName: 'Okafor' },
  { firstName: 'Liam', lastName: 'Chen' },
  { firstName: 'Grace', lastName: 'Kim' },
  { firstName: 'Noah', lastName: 'Williams' },
  { firstName: 'Olivia', lastName: 'Nguyen' },
  { firstName: 'Marcus', lastName: 'Johnson' },
];

export const DEMO_PLACES = [
  'The main library, front desk',
  'The student center',
  'The dining hall entrance',
  'The science building lobby',
  'The business school lobby',
];

export const DEMO_DESCRIPTIONS = [
  'Barely used, no highlighting. Spine is still tight.',
  'Some highlighting in the first few chapters, otherwise clean.',
  'Used for one semester. Pencil notes in the margins that erase easily.',
  'Like new — bought it and the professor ended up using slides.',
  'Cover is a bit worn, all pages intact. Great for the final.',
  'Includes my chapter summaries on sticky notes if you want them.',
  'Water damage on the back cover, inside is fine. Priced to go.',
];
