// The demo world's offers (seed.ts): their titles in French and English,
// contracts, salaries, cities and skills, and the HTML of their texts.

/** Where the seeded offers' cities are (their centres, in degrees), so that searches near a place find them. */
export const CITY_POSITIONS: Record<string, { latitude: number; longitude: number }> = {
  Paris: { latitude: 48.8566, longitude: 2.3522 },
  Lyon: { latitude: 45.764, longitude: 4.8357 },
  Nantes: { latitude: 47.2184, longitude: -1.5536 },
  Bordeaux: { latitude: 44.8378, longitude: -0.5792 },
  Lille: { latitude: 50.6292, longitude: 3.0573 },
  Toulouse: { latitude: 43.6047, longitude: 1.4442 },
  Marseille: { latitude: 43.2965, longitude: 5.3698 },
  Rennes: { latitude: 48.1173, longitude: -1.6778 },
  Strasbourg: { latitude: 48.5734, longitude: 7.7521 },
  Grenoble: { latitude: 45.1885, longitude: 5.7245 },
};

export interface Offer {
  fr: string;
  en: string;
  job_type: string;
  working_time: string;
  salary: [number, number] | null;
  city: string;
  country: string;
  postal_code: string;
  locale: 'fr' | 'en';
  skills: string[];
}

export const OFFERS: Offer[] = [
  {
    fr: 'Développeur·se full-stack TypeScript',
    en: 'Full-stack TypeScript developer',
    job_type: 'Permanent contract',
    working_time: 'Full time',
    salary: [45000, 58000],
    city: 'Paris',
    country: 'France',
    postal_code: '75011',
    locale: 'fr',
    skills: ['TypeScript', 'Node.js', 'React', 'SQL'],
  },
  {
    fr: 'Chargé·e de recrutement',
    en: 'Recruitment officer',
    job_type: 'Fixed term contract',
    working_time: 'Full time',
    salary: [32000, 38000],
    city: 'Lyon',
    country: 'France',
    postal_code: '69002',
    locale: 'fr',
    skills: ['Recruiting', 'Communication', 'Negotiation'],
  },
  {
    fr: 'Data analyst',
    en: 'Data analyst',
    job_type: 'Permanent contract',
    working_time: 'Full time',
    salary: [40000, 50000],
    city: 'Nantes',
    country: 'France',
    postal_code: '44000',
    locale: 'en',
    skills: ['SQL', 'Python', 'Data analysis', 'Excel'],
  },
  {
    fr: 'Stage – assistant·e marketing digital',
    en: 'Internship – digital marketing assistant',
    job_type: 'Internship',
    working_time: 'Full time',
    salary: [1200, 1400],
    city: 'Bordeaux',
    country: 'France',
    postal_code: '33000',
    locale: 'fr',
    skills: ['Marketing', 'SEO', 'Communication'],
  },
  {
    fr: 'Comptable fournisseurs',
    en: 'Accounts payable accountant',
    job_type: 'Interim Contract',
    working_time: 'Part time - Morning',
    salary: [28000, 31000],
    city: 'Lille',
    country: 'France',
    postal_code: '59000',
    locale: 'fr',
    skills: ['Accounting', 'Excel', 'Finance'],
  },
  {
    fr: 'Ingénieur·e DevOps',
    en: 'DevOps engineer',
    job_type: 'Freelance',
    working_time: 'Custom',
    salary: null,
    city: 'Toulouse',
    country: 'France',
    postal_code: '31000',
    locale: 'en',
    skills: ['Docker', 'Kubernetes', 'AWS', 'Linux'],
  },
  {
    fr: 'Commercial·e terrain B2B',
    en: 'B2B field sales representative',
    job_type: 'Permanent contract',
    working_time: 'Full time',
    salary: [35000, 45000],
    city: 'Marseille',
    country: 'France',
    postal_code: '13002',
    locale: 'fr',
    skills: ['Sales', 'Negotiation'],
  },
  {
    fr: 'Alternance – développeur·se web',
    en: 'Work-study – web developer',
    job_type: 'Alternating',
    working_time: 'Full time',
    salary: [900, 1300],
    city: 'Rennes',
    country: 'France',
    postal_code: '35000',
    locale: 'fr',
    skills: ['HTML', 'CSS', 'JavaScript', 'Git'],
  },
  {
    fr: 'Product designer UX/UI',
    en: 'UX/UI product designer',
    job_type: 'Permanent contract',
    working_time: 'Full time',
    salary: [42000, 52000],
    city: 'Paris',
    country: 'France',
    postal_code: '75009',
    locale: 'en',
    skills: ['UX', 'Figma'],
  },
  {
    fr: 'Conseiller·ère clientèle bilingue',
    en: 'Bilingual customer advisor',
    job_type: 'Fixed term contract',
    working_time: 'Part time',
    salary: [24000, 27000],
    city: 'Strasbourg',
    country: 'France',
    postal_code: '67000',
    locale: 'fr',
    skills: ['Customer service', 'English', 'German'],
  },
  {
    fr: 'Cheffe de projet agile',
    en: 'Agile project manager',
    job_type: 'Permanent contract',
    working_time: 'Full time',
    salary: [50000, 62000],
    city: 'Grenoble',
    country: 'France',
    postal_code: '38000',
    locale: 'en',
    skills: ['Project management', 'Agile', 'Scrum', 'Leadership'],
  },
  {
    fr: 'Technicien·ne de maintenance',
    en: 'Maintenance technician',
    job_type: 'Professional Contract',
    working_time: 'Part time - Afternoon',
    salary: [26000, 30000],
    city: 'Lyon',
    country: 'France',
    postal_code: '69007',
    locale: 'fr',
    skills: ['Teamwork'],
  },
];

export function describe(offer: Offer, company: string): string {
  if (offer.locale === 'fr') {
    return [
      `<h2>${offer.fr}</h2>`,
      `<p>Rejoignez <strong>${company}</strong> à ${offer.city} : une équipe de passionné·es qui construit des outils utilisés chaque jour par des milliers de personnes.</p>`,
      '<h3>Vos missions</h3>',
      `<ul><li>Prendre en charge des projets de bout en bout, de l'idée à la mise en production.</li><li>Travailler avec les équipes produit, commerciales et support.</li><li>Partager vos connaissances et faire grandir l'équipe.</li></ul>`,
      '<h3>Ce que nous offrons</h3>',
      `<p>Télétravail partiel, mutuelle prise en charge à 100 %, tickets restaurant et un budget formation annuel. Poste ouvert aux personnes en situation de handicap.</p>`,
    ].join('\n');
  }
  return [
    `<h2>${offer.en}</h2>`,
    `<p>Join <strong>${company}</strong> in ${offer.city}: a team of enthusiasts building tools that thousands of people rely on every day.</p>`,
    '<h3>What you will do</h3>',
    '<ul><li>Own projects end to end, from the first idea to production.</li><li>Work closely with product, sales and support.</li><li>Share what you know and help the team grow.</li></ul>',
    '<h3>What we offer</h3>',
    '<p>Hybrid work, full health insurance, meal vouchers and a yearly training budget. We welcome applications from people with disabilities.</p>',
  ].join('\n');
}

export function profileOf(offer: Offer): string {
  return offer.locale === 'fr'
    ? `<p>Vous maîtrisez : ${offer.skills.join(', ')}.</p><p>Curieux·se, rigoureux·se et à l'aise à l'oral comme à l'écrit.</p>`
    : `<p>You are fluent in: ${offer.skills.join(', ')}.</p><p>Curious, thorough and a clear communicator.</p>`;
}
