// The language of an offer's text, told by its common small words: enough to
// say whether an ad on a French board is in French, and no more.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describe as demoText, OFFERS, profileOf } from '../../../sandbox/demo-offers.ts';
import { MIN_COMMON_WORDS, guessLanguage, readsAsOtherLanguage } from './language.ts';
import { offerTextOf } from './text.ts';
import { htmlToText } from '../sanitize.ts';

const folded = (...pieces: string[]) => offerTextOf(pieces).folded;

const FRENCH =
  'Rejoignez notre équipe à Lyon pour concevoir les services de paiement utilisés chaque jour par des milliers de clients. Vous travaillez avec les équipes produit et support, et vous partagez vos connaissances.';
const ENGLISH =
  'Join our team in Lyon to build the payment services that thousands of customers rely on every day. You will work with the product and support teams, and share what you know.';
const SPANISH =
  'Únete a nuestro equipo en Madrid para construir los servicios de pago que usan miles de clientes cada día. Trabajarás con los equipos de producto y soporte, y compartirás lo que sabes con el equipo.';

describe('the language of an offer', () => {
  it('tells French, English and Spanish texts apart', () => {
    assert.equal(guessLanguage(folded(FRENCH)).language, 'fr');
    assert.equal(guessLanguage(folded(ENGLISH)).language, 'en');
    assert.equal(guessLanguage(folded(SPANISH)).language, 'es');
  });

  it("reads every demo offer's text in the language it is written in", () => {
    for (const offer of OFFERS) {
      const text = folded(offer.fr, htmlToText(demoText(offer, 'Acme')), htmlToText(profileOf(offer)));
      assert.equal(guessLanguage(text).language, offer.locale, offer.en);
    }
  });

  it(`tells nothing of a text with fewer than ${MIN_COMMON_WORDS} common words, such as a title alone`, () => {
    assert.equal(guessLanguage(folded('Data analyst')).language, null);
    assert.equal(guessLanguage(folded('Développeur·se full-stack TypeScript')).language, null);
    assert.equal(readsAsOtherLanguage(guessLanguage(folded('Data analyst senior')), 'fr'), false);
  });

  it('takes an English text on a French board as another language, a French one with its English version beside it not', () => {
    assert.equal(readsAsOtherLanguage(guessLanguage(folded('Développeur (H/F)', ENGLISH)), 'fr'), true);
    assert.equal(readsAsOtherLanguage(guessLanguage(folded(FRENCH, ENGLISH)), 'fr'), false);
    assert.equal(readsAsOtherLanguage(guessLanguage(folded(FRENCH)), 'fr'), false);
  });

  it('counts a word two of the languages share for neither ("la", "en", "que")', () => {
    assert.deepEqual(guessLanguage(folded('la en que la en que la en que la en que')).counts, { fr: 0, en: 0, es: 0 });
  });
});
