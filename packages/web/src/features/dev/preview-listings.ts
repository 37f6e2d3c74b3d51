import type { SearchedListing } from '@campus-books/common/consortium-listing';

const SHOWN: SearchedListing = {
  _id: '00000000-0000-4000-8000-000000000001',
  name: 'introduction to microeconomics',
  courseNumber: '101',
  description: '',
  address: '',
  pickupLocation: null,
  condition: 'good',
  regularPrice: 45,
  discountPrice: 0,
  imageUrls: [],
  schools: [],
  school: '',
  major: '',
  type: 'sale',
  userRef: 'preview',
  status: 'active',
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
  isbn: null,
  authors: null,
  edition: null,
  subject: 'ECON',
  publisherCover: null,
  expiresAt: '2027-01-05T10:00:00.000Z',
  confirmedAt: '2026-01-05T10:00:00.000Z',
  pendingUntil: null,
};

/**
 * Cards as a search shows them: one of this campus, and partner campuses' (consortium sharing) with
 * a long name, a name in another script and a long title, whose links go to the partner's own site.
 */
export const PREVIEW_LISTINGS: SearchedListing[] = [
  SHOWN,
  {
    ...SHOWN,
    _id: '00000000-0000-4000-8000-000000000002',
    name: 'cálculo diferencial e integral de una variable con aplicaciones a la ingeniería',
    courseNumber: '210',
    subject: 'MAT',
    regularPrice: 1234.5,
    campus: {
      key: 'pacifico',
      name: 'Universidad Autónoma de Ciencias Aplicadas y Tecnológicas del Pacífico',
      url: 'https://libros.pacifico.example.edu',
    },
  },
  {
    ...SHOWN,
    _id: '00000000-0000-4000-8000-000000000003',
    name: '線形代数入門',
    courseNumber: '305',
    subject: 'MATH',
    condition: 'excellent',
    campus: { key: 'tokyo', name: '東京工科大学', url: 'https://books.tokyo.example.jp' },
  },
];
