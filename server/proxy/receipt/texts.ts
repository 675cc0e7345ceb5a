// The receipt page's words, in the languages of the widget. Candidates read
// them: plain, short, and saying what to do when something went wrong.
import type { Locale } from '../../contract/index.ts';

export interface ReceiptTexts {
  title: string;
  received: { heading: string; body: string };
  delivered: { heading: string; body: string };
  notDelivered: { heading: string; body: string; what: string; applyAgain: string };
  /** Which application: the terms of its list, and the line said when the board no longer lists the offer. */
  details: { offer: string; company: string; applied: string; status: string; offerGone: string; spontaneous: string };
  notFound: { heading: string; body: string };
}

export const RECEIPT_TEXTS: Record<Locale, ReceiptTexts> = {
  en: {
    title: 'Your application',
    received: {
      heading: 'Application received',
      body: 'Your application has been received. It will be sent to the recruiter shortly.',
    },
    delivered: {
      heading: 'Sent to the company',
      body: 'Your application has been sent to the recruiter, who will contact you by email if your profile matches.',
    },
    notDelivered: {
      heading: 'Not delivered',
      body: 'We could not send your application to the recruiter.',
      what: 'Apply again from the job offer on the job board, or contact the job board if it happens again.',
      applyAgain: 'Apply again to this job offer',
    },
    details: {
      offer: 'Job offer',
      company: 'Company',
      applied: 'Applied on',
      status: 'Status',
      offerGone: 'This job offer is no longer on the job board.',
      spontaneous: 'Spontaneous application (to the company, not to a job offer)',
    },
    notFound: {
      heading: 'Receipt not available',
      body: 'This link is not valid, or this receipt is no longer available: receipts are kept until the job board deletes the record of the application. Contact the job board if you need to know more.',
    },
  },
  fr: {
    title: 'Votre candidature',
    received: {
      heading: 'Candidature reçue',
      body: 'Votre candidature a bien été reçue. Elle sera transmise au recruteur sous peu.',
    },
    delivered: {
      heading: "Transmise à l'entreprise",
      body: 'Votre candidature a été transmise au recruteur, qui vous contactera par e-mail si votre profil correspond.',
    },
    notDelivered: {
      heading: 'Non transmise',
      body: "Nous n'avons pas pu transmettre votre candidature au recruteur.",
      what: "Postulez à nouveau depuis l'offre sur le site d'emploi, ou contactez le site d'emploi si cela se reproduit.",
      applyAgain: 'Postuler à nouveau à cette offre',
    },
    details: {
      offer: "Offre d'emploi",
      company: 'Entreprise',
      applied: 'Date de candidature',
      status: 'Statut',
      offerGone: "Cette offre n'est plus publiée sur le site d'emploi.",
      spontaneous: "Candidature spontanée (à l'entreprise, sans offre d'emploi)",
    },
    notFound: {
      heading: 'Accusé de réception indisponible',
      body: "Ce lien n'est pas valide, ou cet accusé de réception n'est plus disponible : il est conservé jusqu'à ce que le site d'emploi supprime la trace de la candidature. Contactez le site d'emploi pour en savoir plus.",
    },
  },
  es: {
    title: 'Tu candidatura',
    received: {
      heading: 'Candidatura recibida',
      body: 'Hemos recibido tu candidatura. Se enviará al reclutador en breve.',
    },
    delivered: {
      heading: 'Enviada a la empresa',
      body: 'Tu candidatura se ha enviado al reclutador, que te contactará por correo electrónico si tu perfil encaja.',
    },
    notDelivered: {
      heading: 'No entregada',
      body: 'No hemos podido enviar tu candidatura al reclutador.',
      what: 'Vuelve a postularte desde la oferta en el portal de empleo, o contacta con el portal de empleo si vuelve a ocurrir.',
      applyAgain: 'Volver a postularse a esta oferta',
    },
    details: {
      offer: 'Oferta de empleo',
      company: 'Empresa',
      applied: 'Fecha de la candidatura',
      status: 'Estado',
      offerGone: 'Esta oferta ya no está publicada en el portal de empleo.',
      spontaneous: 'Candidatura espontánea (a la empresa, no a una oferta de empleo)',
    },
    notFound: {
      heading: 'Acuse de recibo no disponible',
      body: 'Este enlace no es válido, o este acuse de recibo ya no está disponible: se conserva hasta que el portal de empleo borra el registro de la candidatura. Contacta con el portal de empleo para saber más.',
    },
  },
};
