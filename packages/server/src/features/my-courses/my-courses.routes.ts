import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { parseCourseList } from '@campus-books/common/course-list';
import { CALENDAR_MAX_CHARS, toMyCourse } from '@campus-books/common/my-courses.schemas';
import {
  currentUser,
  REQUIRE_USER_ERRORS,
  REQUIRE_VERIFIED_USER_ERRORS,
} from '../../plugins/sessions';
import { viewerOf } from '../listings/listing-visibility';
import { readCalendar } from './ics-schedule';
import { courseBooksCache } from './course-books-cache';
import {
  addMyCourses,
  findMyCourses,
  removeMyCourse,
  suggestCourseNumbers,
  type SubjectCourse,
} from './my-courses.repository';
import { notifyForCourses } from './notify';

const signedIn = errorResponses(REQUIRE_USER_ERRORS);
const listAnswer = async (app: FastifyInstance, userId: string) => ({
  success: true as const,
  courses: (await findMyCourses(app.database.db, userId)).map(toMyCourse),
});

/** /api/my-courses: a student's courses this term, their books, and one alert for what is missing. */
export default async function myCoursesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const user = { preValidation: app.requireUser };
  const courseBooks = courseBooksCache(app);

  app.get(
    '/get',
    {
      ...user,
      schema: { response: { 200: apiRoutes['GET /api/my-courses/get'].response, ...signedIn } },
    },
    async (request) => listAnswer(app, currentUser(request).id),
  );

  // Typed or pasted codes, read by the same parser as the web app's; also merges a visitor's list
  // at sign-in. Courses already in the list are left alone, so a repeated request adds nothing.
  app.post(
    '/add',
    {
      ...user,
      schema: {
        body: apiRoutes['POST /api/my-courses/add'].body,
        response: {
          200: apiRoutes['POST /api/my-courses/add'].response,
          ...errorResponses({
            400: 'No course of this campus in the text, or the text is too long',
            ...REQUIRE_USER_ERRORS,
            409: 'The list would have more courses than a student may keep',
          }),
        },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      const read = parseCourseList(request.body.text);
      const { added, already } = await addMyCourses(
        app.database.db,
        userId,
        read.courses as SubjectCourse[],
      );
      return {
        ...(await listAnswer(app, userId)),
        added: added.map(toMyCourse),
        unknown: read.unknown,
        duplicates: [...read.duplicates, ...already.map((c) => toMyCourse(c).label)],
      };
    },
  );

  app.post(
    '/remove',
    {
      ...user,
      schema: {
        body: apiRoutes['POST /api/my-courses/remove'].body,
        response: {
          200: apiRoutes['POST /api/my-courses/remove'].response,
          ...errorResponses({ 400: 'Not a course of this campus', ...REQUIRE_USER_ERRORS }),
        },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      await removeMyCourse(app.database.db, userId, request.body.course as SubjectCourse);
      return listAnswer(app, userId);
    },
  );

  // Reads an .ics schedule; nothing is stored (a visitor keeps the courses on the device, a signed-in
  // student adds them with /add). The body may be larger than the app's usual limit, up to a little
  // over CALENDAR_MAX_CHARS, which the schema checks with its own message.
  app.post(
    '/calendar',
    {
      bodyLimit: CALENDAR_MAX_CHARS * 2 + 1024,
      schema: {
        body: apiRoutes['POST /api/my-courses/calendar'].body,
        response: {
          200: apiRoutes['POST /api/my-courses/calendar'].response,
          ...errorResponses({
            400: 'Not an iCalendar file, not UTF-8, too large, too deep, or a line too long',
          }),
        },
      },
    },
    async (request) => {
      const read = readCalendar(request.body.calendar);
      return {
        success: true as const,
        courses: (read.courses as SubjectCourse[]).map(toMyCourse),
        unknown: read.unknown,
        events: read.events,
      };
    },
  );

  app.get(
    '/books',
    {
      schema: {
        querystring: apiRoutes['GET /api/my-courses/books'].query,
        response: {
          200: apiRoutes['GET /api/my-courses/books'].response,
          ...errorResponses({ 400: 'A course that is not of this campus, or too many' }),
        },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await courseBooks(
        request.query.courses as SubjectCourse[],
        await viewerOf({ sessions: app.sessions, trust: app.config.trust }, request),
      )),
    }),
  );

  app.post(
    '/notify',
    {
      preValidation: app.requireVerifiedUser,
      schema: {
        body: apiRoutes['POST /api/my-courses/notify'].body,
        response: {
          200: apiRoutes['POST /api/my-courses/notify'].response,
          ...errorResponses({
            400: 'A course that is not of this campus, or too many',
            ...REQUIRE_VERIFIED_USER_ERRORS,
          }),
        },
      },
    },
    async (request) => {
      const viewer = (await viewerOf(
        { sessions: app.sessions, trust: app.config.trust },
        request,
      ))!;
      return {
        success: true as const,
        ...(await notifyForCourses(
          app.database.db,
          viewer,
          request.body.courses as SubjectCourse[],
        )),
      };
    },
  );

  // Completion while typing a code: the numbers the catalogue knows for a subject.
  app.get(
    '/suggest',
    {
      schema: {
        querystring: apiRoutes['GET /api/my-courses/suggest'].query,
        response: {
          200: apiRoutes['GET /api/my-courses/suggest'].response,
          ...errorResponses({ 400: 'Not a subject of this campus' }),
        },
      },
    },
    async (request) => ({
      success: true as const,
      courses: (
        await suggestCourseNumbers(
          app.database.db,
          request.query.subject,
          request.query.number.toUpperCase(),
        )
      ).map((n) => `${request.query.subject} ${n}`),
    }),
  );
}
