/**
 * The product's version (semantic: MAJOR.MINOR.PATCH), the same in every workspace's package.json
 * (version.test.ts). A release raises it and adds its notes to CHANGELOG.md; between releases it
 * carries `-dev`. Shown by `GET /api/health` and on the About page.
 */
export const PRODUCT_VERSION = '0.4.0-dev';
