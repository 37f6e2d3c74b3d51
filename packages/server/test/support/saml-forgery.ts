import { DOMParser, XMLSerializer, type Document, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';

const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';

export const decodeResponse = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');
export const encodeResponse = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

/** The response with its assertion changed by `edit` (a DOM), unsigned. */
export function editAssertion(xml: string, edit: (assertion: Element, doc: Document) => void) {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const assertion = doc.getElementsByTagNameNS(SAML, 'Assertion')[0]!;
  edit(assertion, doc);
  return new XMLSerializer().serializeToString(doc);
}

/** Removes the assertion's signature. */
export function stripSignature(assertion: Element) {
  for (const sig of Array.from(assertion.getElementsByTagNameNS(DSIG, 'Signature'))) {
    sig.parentNode!.removeChild(sig);
  }
}

/** Signs the response's assertion again with `key` (xml-crypto), as an IdP does. */
export function signAssertion(xml: string, key: string, cert: string): string {
  const signer = new SignedXml({
    privateKey: key,
    publicCert: cert,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  signer.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: {
      reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']",
      action: 'after',
    },
  });
  return signer.getSignedXml();
}

/** Sets an attribute on the first element of that name in the assertion. */
export function setOn(assertion: Element, localName: string, attribute: string, value: string) {
  const el = Array.from(assertion.getElementsByTagNameNS(SAML, localName))[0];
  if (!el) throw new Error(`no ${localName} in the assertion`);
  el.setAttribute(attribute, value);
}
