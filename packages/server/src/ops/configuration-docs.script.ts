import { writeFileSync } from 'node:fs';
import { CONFIGURATION_DOCS_PATH, renderConfigurationDocs } from './configuration-docs';

/** `npm run docs:configuration`: writes docs/configuration.md from the settings' schemas. */
writeFileSync(CONFIGURATION_DOCS_PATH, renderConfigurationDocs());
console.log(`Wrote ${CONFIGURATION_DOCS_PATH}`);
