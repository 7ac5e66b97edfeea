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
  /** To an address a published edit sends a form's mails to: confirm or decline them. */
  recipientSubject: (site: string) => string;
  recipientIntro: (site: string) => string;
  recipientAsk: string;
  recipientTitle: string;
  recipientConfirm: string;
  recipientDecline: string;
  recipientConfirmed: string;
  recipientDeclined: string;
  recipientInvalid: string;
  /** The end of each submission's mail to such an address. */
  mailStop: (link: string) => string;
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
    recipientSubject: (site) => `Confirm form submissions of ${site} to this address`,
    recipientIntro: (site) =>
      `The owner of the site ${site} asked that its form submissions be mailed to this address.`,
    recipientAsk:
      'Nothing is sent here unless you confirm. If you did not expect this, decline or ignore this mail.',
    recipientTitle: 'Form submissions by mail',
    recipientConfirm: 'Yes, mail them here',
    recipientDecline: 'No, do not mail them here',
    recipientConfirmed: 'Confirmed: the site’s form submissions will be mailed to this address.',
    recipientDeclined:
      'Declined: nothing more from this site’s forms will be mailed to this address.',
    recipientInvalid: 'This link is invalid.',
    mailStop: (link) => `You get these mails because this address agreed to. To stop them: ${link}`,
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
    recipientSubject: (site) => `Confirma los envíos de formularios de ${site} a esta dirección`,
    recipientIntro: (site) =>
      `El propietario del sitio ${site} pidió que los envíos de sus formularios lleguen a esta dirección.`,
    recipientAsk:
      'No se envía nada aquí a menos que lo confirmes. Si no lo esperabas, recházalo o ignora este correo.',
    recipientTitle: 'Envíos de formularios por correo',
    recipientConfirm: 'Sí, enviarlos aquí',
    recipientDecline: 'No, no enviarlos aquí',
    recipientConfirmed:
      'Confirmado: los envíos de formularios del sitio llegarán a esta dirección.',
    recipientDeclined:
      'Rechazado: no llegará nada más de los formularios de este sitio a esta dirección.',
    recipientInvalid: 'Este enlace no es válido.',
    mailStop: (link) =>
      `Recibes estos correos porque esta dirección lo aceptó. Para dejar de recibirlos: ${link}`,
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
    recipientSubject: (site) => `Подтвердите получение отправок форм сайта ${site}`,
    recipientIntro: (site) =>
      `Владелец сайта ${site} попросил присылать отправки его форм на этот адрес.`,
    recipientAsk:
      'Ничего не будет прислано, пока вы не подтвердите. Если вы этого не ждали, откажитесь или проигнорируйте письмо.',
    recipientTitle: 'Отправки форм по почте',
    recipientConfirm: 'Да, присылать сюда',
    recipientDecline: 'Нет, не присылать',
    recipientConfirmed: 'Подтверждено: отправки форм сайта будут приходить на этот адрес.',
    recipientDeclined: 'Отказано: с форм этого сайта сюда больше ничего не придёт.',
    recipientInvalid: 'Эта ссылка недействительна.',
    mailStop: (link) =>
      `Вы получаете эти письма, потому что этот адрес согласился. Чтобы отказаться: ${link}`,
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
    recipientSubject: (site) => `确认将 ${site} 的表单提交发送到此地址`,
    recipientIntro: (site) => `网站 ${site} 的所有者请求将其表单提交通过邮件发送到此地址。`,
    recipientAsk:
      '除非您确认，否则不会向此处发送任何内容。如果这不是您预期的，请拒绝或忽略此邮件。',
    recipientTitle: '通过邮件接收表单提交',
    recipientConfirm: '是的，发送到这里',
    recipientDecline: '不，不要发送到这里',
    recipientConfirmed: '已确认：该网站的表单提交将发送到此地址。',
    recipientDeclined: '已拒绝：该网站的表单不会再向此地址发送任何内容。',
    recipientInvalid: '此链接无效。',
    mailStop: (link) => `您收到这些邮件是因为此地址已同意接收。如需停止：${link}`,
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
    recipientSubject: (site) => `${site} के फ़ॉर्म सबमिशन इस पते पर भेजने की पुष्टि करें`,
    recipientIntro: (site) =>
      `साइट ${site} के मालिक ने कहा है कि उसके फ़ॉर्म सबमिशन इस पते पर ईमेल किए जाएँ।`,
    recipientAsk:
      'जब तक आप पुष्टि नहीं करते, यहाँ कुछ नहीं भेजा जाएगा। अगर आपको इसकी उम्मीद नहीं थी, तो मना करें या इस ईमेल को अनदेखा करें।',
    recipientTitle: 'ईमेल से फ़ॉर्म सबमिशन',
    recipientConfirm: 'हाँ, यहाँ भेजें',
    recipientDecline: 'नहीं, यहाँ न भेजें',
    recipientConfirmed: 'पुष्टि हो गई: साइट के फ़ॉर्म सबमिशन इस पते पर भेजे जाएँगे।',
    recipientDeclined: 'मना कर दिया: इस साइट के फ़ॉर्म से अब इस पते पर कुछ नहीं भेजा जाएगा।',
    recipientInvalid: 'यह लिंक मान्य नहीं है।',
    mailStop: (link) =>
      `आपको ये ईमेल इसलिए मिल रहे हैं क्योंकि इस पते ने सहमति दी थी। इन्हें रोकने के लिए: ${link}`,
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
    recipientSubject: (site) => `أكِّد استلام إرسالات نماذج ${site} على هذا العنوان`,
    recipientIntro: (site) => `طلب مالك الموقع ${site} أن تُرسَل إرسالات نماذجه إلى هذا العنوان.`,
    recipientAsk:
      'لن يُرسَل شيء إلى هنا ما لم تؤكد. إن لم تكن تتوقع ذلك، فارفض أو تجاهل هذه الرسالة.',
    recipientTitle: 'إرسالات النماذج بالبريد',
    recipientConfirm: 'نعم، أرسلها إلى هنا',
    recipientDecline: 'لا، لا ترسلها إلى هنا',
    recipientConfirmed: 'تم التأكيد: ستُرسَل إرسالات نماذج الموقع إلى هذا العنوان.',
    recipientDeclined: 'تم الرفض: لن يُرسَل شيء آخر من نماذج هذا الموقع إلى هذا العنوان.',
    recipientInvalid: 'هذا الرابط غير صالح.',
    mailStop: (link) => `تصلك هذه الرسائل لأن هذا العنوان وافق على ذلك. لإيقافها: ${link}`,
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
    recipientSubject: (site) => `Konfirmasi kiriman formulir ${site} ke alamat ini`,
    recipientIntro: (site) =>
      `Pemilik situs ${site} meminta agar kiriman formulirnya dikirim ke alamat ini.`,
    recipientAsk:
      'Tidak ada yang dikirim ke sini kecuali Anda mengonfirmasi. Jika Anda tidak mengharapkan ini, tolak atau abaikan email ini.',
    recipientTitle: 'Kiriman formulir lewat email',
    recipientConfirm: 'Ya, kirim ke sini',
    recipientDecline: 'Tidak, jangan kirim ke sini',
    recipientConfirmed: 'Dikonfirmasi: kiriman formulir situs ini akan dikirim ke alamat ini.',
    recipientDeclined: 'Ditolak: tidak ada lagi kiriman dari formulir situs ini ke alamat ini.',
    recipientInvalid: 'Tautan ini tidak valid.',
    mailStop: (link) =>
      `Anda menerima email ini karena alamat ini menyetujuinya. Untuk berhenti: ${link}`,
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
    recipientSubject: (site) => `ยืนยันการรับข้อมูลฟอร์มของ ${site} ที่อีเมลนี้`,
    recipientIntro: (site) => `เจ้าของเว็บไซต์ ${site} ขอให้ส่งข้อมูลที่กรอกในฟอร์มมายังอีเมลนี้`,
    recipientAsk: 'จะไม่มีการส่งสิ่งใดมาที่นี่จนกว่าคุณจะยืนยัน หากคุณไม่ได้คาดหวังสิ่งนี้ โปรดปฏิเสธหรือเพิกเฉยต่ออีเมลนี้',
    recipientTitle: 'ข้อมูลฟอร์มทางอีเมล',
    recipientConfirm: 'ใช่ ส่งมาที่นี่',
    recipientDecline: 'ไม่ อย่าส่งมาที่นี่',
    recipientConfirmed: 'ยืนยันแล้ว: ข้อมูลฟอร์มของเว็บไซต์จะถูกส่งมายังอีเมลนี้',
    recipientDeclined: 'ปฏิเสธแล้ว: จะไม่มีข้อมูลจากฟอร์มของเว็บไซต์นี้ส่งมาที่อีเมลนี้อีก',
    recipientInvalid: 'ลิงก์นี้ไม่ถูกต้อง',
    mailStop: (link) => `คุณได้รับอีเมลเหล่านี้เพราะอีเมลนี้ได้ยินยอมไว้ หากต้องการหยุด: ${link}`,
  },
};
