import { boolean, index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, users } from './schema';

/** A student's courses this term (/my-courses, issue 31), in the order they were added. */
export const userCourses = pgTable(
  'user_courses',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    courseNumber: text('course_number').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.subject, t.courseNumber] })],
);

/**
 * The campus bookstore's adoption list (issue 31): the books a course requires or suggests, imported
 * by the operator's `npm run import-required-books`; one import replaces the whole list.
 */
export const requiredBooks = pgTable(
  'required_books',
  {
    subject: text('subject').notNull(),
    courseNumber: text('course_number').notNull(),
    isbn: text('isbn').notNull(),
    title: text('title').notNull(),
    required: boolean('required').notNull(),
    importedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.subject, t.courseNumber, t.isbn] }),
    index('required_books_isbn_idx').on(t.isbn),
  ],
);
