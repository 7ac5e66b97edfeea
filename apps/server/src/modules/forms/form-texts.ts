import type { LocaleCode } from '@mirror/contract';

/**
 * What a copy's visitor reads when the sites host answers a form itself (the thank-you page when
 * the site has none of its own, the notice of a form the copy does not take), in the site's
 * language; and what the owner's mail says, in the owner's.
 */
export interface FormTexts {
  thanksTitle: string;
  thanksBody: string;
  back: string;
  notAvailable: string;
  notAvailableBody: string;
  tooMany: string;
  mailSubject: (form: string, site: string) => string;
  mailIntro: (form: string, page: string) => string;
  mailDigestSubject: (count: number) => string;
  mailFooter: string;
  search: string;
  searchResults: (count: number, term: string) => string;
  searchNone: (term: string) => string;
}

export const FORM_TEXTS: Record<LocaleCode, FormTexts> = {
  en: {
    thanksTitle: 'Thank you!',
    thanksBody: 'Your message was sent.',
    back: 'Back to the site',
    notAvailable: 'This form is not available on this copy',
    notAvailableBody: 'Nothing you entered was sent or kept.',
    tooMany: 'Too many messages were sent from here. Please try again later.',
    mailSubject: (form, site) => `New submission of "${form}" on ${site}`,
    mailIntro: (form, page) => `Someone sent the form "${form}" on ${page}:`,
    mailDigestSubject: (count) =>
      count === 1 ? '1 new form submission' : `${count} new form submissions`,
    mailFooter: 'Reply to this mail to answer the sender. Manage your forms on the site page.',
    search: 'Search',
    searchResults: (count, term) =>
      count === 1 ? `1 page for “${term}”` : `${count} pages for “${term}”`,
    searchNone: (term) => `No page of this site has “${term}”.`,
  },
  es: {
    thanksTitle: '¡Gracias!',
    thanksBody: 'Tu mensaje se ha enviado.',
    back: 'Volver al sitio',
    notAvailable: 'Este formulario no está disponible en esta copia',
    notAvailableBody: 'No se envió ni se guardó nada de lo que escribiste.',
    tooMany: 'Se enviaron demasiados mensajes desde aquí. Inténtalo más tarde.',
    mailSubject: (form, site) => `Nuevo envío de «${form}» en ${site}`,
    mailIntro: (form, page) => `Alguien envió el formulario «${form}» en ${page}:`,
    mailDigestSubject: (count) =>
      count === 1 ? '1 nuevo envío de formulario' : `${count} nuevos envíos de formularios`,
    mailFooter:
      'Responde a este correo para contestar al remitente. Gestiona tus formularios en la página del sitio.',
    search: 'Buscar',
    searchResults: (count, term) =>
      count === 1 ? `1 página para «${term}»` : `${count} páginas para «${term}»`,
    searchNone: (term) => `Ninguna página de este sitio contiene «${term}».`,
  },
  ru: {
    thanksTitle: 'Спасибо!',
    thanksBody: 'Ваше сообщение отправлено.',
    back: 'Вернуться на сайт',
    notAvailable: 'Эта форма недоступна в этой копии',
    notAvailableBody: 'Ничего из введённого не отправлено и не сохранено.',
    tooMany: 'Отсюда отправлено слишком много сообщений. Попробуйте позже.',
    mailSubject: (form, site) => `Новая отправка формы «${form}» на ${site}`,
    mailIntro: (form, page) => `Кто-то отправил форму «${form}» на странице ${page}:`,
    mailDigestSubject: (count) => `Новых отправок форм: ${count}`,
    mailFooter: 'Ответьте на это письмо, чтобы ответить отправителю. Формы — на странице сайта.',
    search: 'Поиск',
    searchResults: (count, term) => `Страниц по запросу «${term}»: ${count}`,
    searchNone: (term) => `На этом сайте нет страниц со словами «${term}».`,
  },
  zh: {
    thanksTitle: '谢谢！',
    thanksBody: '您的消息已发送。',
    back: '返回网站',
    notAvailable: '此表单在此副本上不可用',
    notAvailableBody: '您输入的内容没有被发送或保存。',
    tooMany: '从这里发送的消息过多，请稍后再试。',
    mailSubject: (form, site) => `${site} 上的“${form}”有新提交`,
    mailIntro: (form, page) => `有人在 ${page} 提交了表单“${form}”：`,
    mailDigestSubject: (count) => `${count} 条新的表单提交`,
    mailFooter: '回复此邮件即可回复发送者。在网站页面管理您的表单。',
    search: '搜索',
    searchResults: (count, term) => `“${term}”的结果：${count} 个页面`,
    searchNone: (term) => `本网站没有包含“${term}”的页面。`,
  },
  hi: {
    thanksTitle: 'धन्यवाद!',
    thanksBody: 'आपका संदेश भेज दिया गया।',
    back: 'साइट पर वापस जाएँ',
    notAvailable: 'यह फ़ॉर्म इस कॉपी पर उपलब्ध नहीं है',
    notAvailableBody: 'आपने जो भी दर्ज किया, वह न भेजा गया न रखा गया।',
    tooMany: 'यहाँ से बहुत सारे संदेश भेजे गए। कृपया बाद में फिर कोशिश करें।',
    mailSubject: (form, site) => `${site} पर "${form}" का नया सबमिशन`,
    mailIntro: (form, page) => `किसी ने ${page} पर फ़ॉर्म "${form}" भेजा:`,
    mailDigestSubject: (count) => `${count} नए फ़ॉर्म सबमिशन`,
    mailFooter: 'भेजने वाले को जवाब देने के लिए इस मेल का उत्तर दें। अपने फ़ॉर्म साइट पेज पर संभालें।',
    search: 'खोजें',
    searchResults: (count, term) => `“${term}” के लिए ${count} पेज`,
    searchNone: (term) => `इस साइट के किसी पेज में “${term}” नहीं है।`,
  },
  ar: {
    thanksTitle: 'شكرًا لك!',
    thanksBody: 'تم إرسال رسالتك.',
    back: 'العودة إلى الموقع',
    notAvailable: 'هذا النموذج غير متاح في هذه النسخة',
    notAvailableBody: 'لم يُرسل أو يُحفظ أي شيء مما أدخلته.',
    tooMany: 'أُرسل عدد كبير جدًا من الرسائل من هنا. حاول مرة أخرى لاحقًا.',
    mailSubject: (form, site) => `إرسال جديد للنموذج «${form}» على ${site}`,
    mailIntro: (form, page) => `أرسل شخص ما النموذج «${form}» في ${page}:`,
    mailDigestSubject: (count) => `عمليات إرسال نماذج جديدة: ${count}`,
    mailFooter: 'رُدّ على هذه الرسالة للرد على المرسل. أدر نماذجك من صفحة الموقع.',
    search: 'بحث',
    searchResults: (count, term) => `عدد الصفحات التي تحتوي «${term}»: ${count}`,
    searchNone: (term) => `لا توجد صفحة في هذا الموقع تحتوي «${term}».`,
  },
  id: {
    thanksTitle: 'Terima kasih!',
    thanksBody: 'Pesan Anda telah terkirim.',
    back: 'Kembali ke situs',
    notAvailable: 'Formulir ini tidak tersedia di salinan ini',
    notAvailableBody: 'Tidak ada yang Anda masukkan yang dikirim atau disimpan.',
    tooMany: 'Terlalu banyak pesan dikirim dari sini. Coba lagi nanti.',
    mailSubject: (form, site) => `Kiriman baru "${form}" di ${site}`,
    mailIntro: (form, page) => `Seseorang mengirim formulir "${form}" di ${page}:`,
    mailDigestSubject: (count) => `${count} kiriman formulir baru`,
    mailFooter: 'Balas email ini untuk menjawab pengirim. Kelola formulir Anda di halaman situs.',
    search: 'Cari',
    searchResults: (count, term) => `${count} halaman untuk “${term}”`,
    searchNone: (term) => `Tidak ada halaman situs ini yang memuat “${term}”.`,
  },
  th: {
    thanksTitle: 'ขอบคุณ!',
    thanksBody: 'ส่งข้อความของคุณแล้ว',
    back: 'กลับไปที่เว็บไซต์',
    notAvailable: 'แบบฟอร์มนี้ใช้ไม่ได้ในสำเนานี้',
    notAvailableBody: 'สิ่งที่คุณกรอกไม่ได้ถูกส่งหรือเก็บไว้',
    tooMany: 'มีการส่งข้อความจากที่นี่มากเกินไป โปรดลองอีกครั้งภายหลัง',
    mailSubject: (form, site) => `มีการส่ง "${form}" ใหม่บน ${site}`,
    mailIntro: (form, page) => `มีคนส่งแบบฟอร์ม "${form}" ที่ ${page}:`,
    mailDigestSubject: (count) => `การส่งแบบฟอร์มใหม่ ${count} รายการ`,
    mailFooter: 'ตอบกลับอีเมลนี้เพื่อตอบผู้ส่ง จัดการแบบฟอร์มได้ที่หน้าเว็บไซต์',
    search: 'ค้นหา',
    searchResults: (count, term) => `${count} หน้าสำหรับ “${term}”`,
    searchNone: (term) => `ไม่มีหน้าใดในเว็บไซต์นี้ที่มี “${term}”`,
  },
};
