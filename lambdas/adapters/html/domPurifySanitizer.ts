import { createRequire } from 'node:module';
import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import type * as Jsdom from 'jsdom';
import { isHtmlDocument } from '../../../schema/email/htmlDocument';
import type { HtmlSanitizer } from '../../ports';

/**
 * User HTML made safe on the server (DESIGN §5) with DOMPurify on one jsdom window, built on first use
 * and reused. What an email needs stays: whole documents (doctype, <head> with <style>, <title>, charset
 * and viewport metas), layout tables and their attributes, inline styles, http(s) images, http(s) and
 * mailto links, target="_blank" (with rel="noopener noreferrer"), and placeholder links such as
 * href="[TRACK_URL]" or href="[UNSUBSCRIBE_URL]" that renderEmail fills per recipient.
 * What goes: scripts, event handlers, iframes, objects, embeds, forms and their controls, <base>, <link>,
 * <meta http-equiv>, comments, any other URL scheme (javascript:, data:, vbscript:, relative links), and
 * styles that try expression(), script URLs, bindings or @import (the style attribute, or the whole
 * <style> element, is dropped).
 *
 * Which input is sanitized (spec §5: only a body with a doctype, <html> or <body> tag is HTML):
 * - an HTML document: always, as a whole document;
 * - text without anything tag-like ('<' then a letter, '/', '!' or '?'): returned unchanged, there is
 *   nothing to remove ("Line two & <3" stays as typed);
 * - text with tag-like parts but no document: renderEmail sends it as plain text, escaped whole, so it is
 *   returned unchanged when DOMPurify finds nothing to remove (re-serialising would turn '&' into '&amp;',
 *   which the recipient would then read literally); when something is removed, the sanitized markup is
 *   returned.
 */
export class DomPurifySanitizer implements HtmlSanitizer {
  private purify: DOMPurify | undefined;
  /** Set by the hooks when they change something DOMPurify does not list in `removed`. */
  private changed = false;

  sanitize(html: string): string {
    const purify = this.instance();
    if (isHtmlDocument(html)) {
      const clean = this.run(purify, html, { ...BASE_CONFIG, WHOLE_DOCUMENT: true });
      // DOMPurify serialises <html> and below; the doctype keeps clients in standards mode.
      return /<!doctype\b/i.test(html) ? `<!DOCTYPE html>\n${clean}` : clean;
    }
    if (!TAG_LIKE.test(html)) return html;
    const clean = this.run(purify, html, BASE_CONFIG);
    return purify.removed.length === 0 && !this.changed ? html : clean;
  }

  private run(purify: DOMPurify, html: string, config: Config): string {
    this.changed = false;
    return purify.sanitize(html, config);
  }

  private instance(): DOMPurify {
    if (!this.purify) {
      // Loaded on first use, not at import: jsdom reads its own files at load, so it is installed beside
      // the bundle only for the functions that sanitize (campaigns and sender: schema/routes.ts nodeModules,
      // lib/cloud/sending.ts) and is never bundled.
      const { JSDOM } = createRequire(import.meta.url)('jsdom') as typeof Jsdom;
      const { window } = new JSDOM('');
      this.purify = createDOMPurify(window);
      this.addHooks(this.purify);
    }
    return this.purify;
  }

  private addHooks(purify: DOMPurify): void {
    purify.addHook('uponSanitizeElement', (node, data) => {
      const element = node as Element;
      const drop =
        (data.tagName === 'meta' && (element.hasAttribute('http-equiv') || !(element.hasAttribute('charset') || element.hasAttribute('name')))) ||
        (data.tagName === 'style' && isDangerousCss(element.textContent));
      if (drop) {
        element.remove();
        this.changed = true;
      }
    });

    purify.addHook('uponSanitizeAttribute', (_node, data) => {
      const value = data.attrValue;
      const keep = (() => {
        switch (data.attrName) {
          case 'href':
            return SAFE_LINK.test(compact(value)) || PLACEHOLDER_LINK.test(value.trim());
          case 'src':
          case 'background':
          case 'poster':
            return SAFE_RESOURCE.test(compact(value));
          case 'target':
            return value === '_blank';
          case 'style':
            return !isDangerousCss(value);
          default:
            return true;
        }
      })();
      if (!keep) data.keepAttr = false;
    });

    purify.addHook('afterSanitizeAttributes', (element) => {
      // A page opened in a new tab gets no handle on this one.
      if (element.getAttribute('target') === '_blank' && element.getAttribute('rel') !== SAFE_REL) {
        element.setAttribute('rel', SAFE_REL);
        this.changed = true;
      }
    });
  }
}

const BASE_CONFIG: Config = {
  ADD_TAGS: ['meta'],
  ADD_ATTR: ['target', 'charset', 'content'],
  FORBID_TAGS: [
    'script',
    'noscript',
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'applet',
    'form',
    'input',
    'button',
    'select',
    'option',
    'textarea',
    'base',
    'link',
    'svg',
    'math',
  ],
  FORBID_ATTR: ['srcset', 'action', 'formaction', 'ping', 'http-equiv'],
};

const SAFE_REL = 'noopener noreferrer';
/** '<' followed by what starts a tag, an end tag, a comment/doctype or a processing instruction. */
const TAG_LIKE = /<[a-z/!?]/i;
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;
const SAFE_RESOURCE = /^https?:\/\//i;
/**
 * A link placeholder filled later: only '[TRACK_URL]' and '[UNSUBSCRIBE_URL]' (any case, space or
 * underscore), the two whose values are always http(s). Others ([NAME], [EMAIL] …) come from contact
 * fields, which could hold 'javascript:…', so as an href they are removed like any unsafe link.
 */
const PLACEHOLDER_LINK = /^\[(?:track|unsubscribe)[ _]url\]$/i;

/** A URL as a browser reads its scheme: without the spaces and control characters it ignores ('java\tscript:'). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const compact = (value: string) => value.replace(/[\u0000-\u0020\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g, '');

/**
 * CSS that runs script or loads more CSS in some client: expression(), javascript:/vbscript:/data: URLs,
 * -moz-binding, behavior, @import. Read after removing comments, CSS escapes ('\65 xpression') and spaces.
 */
export function isDangerousCss(css: string): boolean {
  const decoded = css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_match, hex: string) => {
      const codePoint = Number.parseInt(hex, 16);
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : '';
    })
    .replace(/\\(.)/g, '$1');
  return /expression\(|javascript:|vbscript:|data:|-moz-binding|behaviou?r:|@import/i.test(compact(decoded));
}
