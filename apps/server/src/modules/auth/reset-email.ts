import { DEFAULT_LOCALE, type LocaleCode } from '@mirror/contract';
import type { MailMessage } from '../../platform/mail/mailer.js';
import { escapeUTF8 } from 'entities';

interface ResetEmailText {
  subject: string;
  greeting: (name: string) => string;
  body: string;
  action: string;
  expiry: (minutes: number) => string;
  ignore: string;
}

// The reset mail is the one message the server writes; it goes out in the user's interface language.
const TEXTS: Record<LocaleCode, ResetEmailText> = {
  en: {
    subject: 'Reset your Mirror password',
    greeting: (n) => `Hi ${n},`,
    body: 'We received a request to reset the password of your Mirror account.',
    action: 'Choose a new password',
    expiry: (m) => `This link works once and expires in ${m} minutes.`,
    ignore: 'If you did not ask for this, you can ignore this email: your password stays the same.',
  },
  es: {
    subject: 'Restablece tu contraseña de Mirror',
    greeting: (n) => `Hola, ${n}:`,
    body: 'Hemos recibido una solicitud para restablecer la contraseña de tu cuenta de Mirror.',
    action: 'Elegir una nueva contraseña',
    expiry: (m) => `Este enlace solo funciona una vez y caduca en ${m} minutos.`,
    ignore: 'Si no lo has solicitado, ignora este correo: tu contraseña no cambiará.',
  },
  ru: {
    subject: 'Сброс пароля Mirror',
    greeting: (n) => `Здравствуйте, ${n}!`,
    body: 'Мы получили запрос на сброс пароля вашей учётной записи Mirror.',
    action: 'Задать новый пароль',
    expiry: (m) => `Ссылка действует один раз и истекает через ${m} минут.`,
    ignore:
      'Если вы не запрашивали сброс, просто проигнорируйте это письмо: пароль останется прежним.',
  },
  zh: {
    subject: '重置您的 Mirror 密码',
    greeting: (n) => `${n}，您好：`,
    body: '我们收到了重置您 Mirror 账户密码的请求。',
    action: '设置新密码',
    expiry: (m) => `此链接仅可使用一次，将在 ${m} 分钟后失效。`,
    ignore: '如果这不是您本人的操作，请忽略此邮件，您的密码不会改变。',
  },
  ar: {
    subject: 'إعادة تعيين كلمة مرور Mirror',
    greeting: (n) => `مرحبًا ${n}،`,
    body: 'تلقّينا طلبًا لإعادة تعيين كلمة مرور حسابك في Mirror.',
    action: 'اختر كلمة مرور جديدة',
    expiry: (m) => `يعمل هذا الرابط مرة واحدة وتنتهي صلاحيته خلال ${m} دقيقة.`,
    ignore: 'إذا لم تطلب ذلك، يمكنك تجاهل هذه الرسالة: ستبقى كلمة مرورك كما هي.',
  },
  hi: {
    subject: 'अपना Mirror पासवर्ड रीसेट करें',
    greeting: (n) => `नमस्ते ${n},`,
    body: 'हमें आपके Mirror खाते का पासवर्ड रीसेट करने का अनुरोध मिला है।',
    action: 'नया पासवर्ड चुनें',
    expiry: (m) => `यह लिंक केवल एक बार काम करता है और ${m} मिनट में समाप्त हो जाएगा।`,
    ignore: 'अगर आपने यह अनुरोध नहीं किया है, तो इस ईमेल को अनदेखा करें: आपका पासवर्ड नहीं बदलेगा।',
  },
  th: {
    subject: 'รีเซ็ตรหัสผ่าน Mirror ของคุณ',
    greeting: (n) => `สวัสดีคุณ ${n}`,
    body: 'เราได้รับคำขอให้รีเซ็ตรหัสผ่านบัญชี Mirror ของคุณ',
    action: 'ตั้งรหัสผ่านใหม่',
    expiry: (m) => `ลิงก์นี้ใช้ได้เพียงครั้งเดียวและจะหมดอายุใน ${m} นาที`,
    ignore: 'หากคุณไม่ได้เป็นผู้ขอ โปรดเพิกเฉยต่ออีเมลนี้ รหัสผ่านของคุณจะไม่เปลี่ยนแปลง',
  },
  id: {
    subject: 'Atur ulang kata sandi Mirror Anda',
    greeting: (n) => `Halo ${n},`,
    body: 'Kami menerima permintaan untuk mengatur ulang kata sandi akun Mirror Anda.',
    action: 'Pilih kata sandi baru',
    expiry: (m) => `Tautan ini hanya berlaku sekali dan kedaluwarsa dalam ${m} menit.`,
    ignore: 'Jika Anda tidak memintanya, abaikan email ini: kata sandi Anda tidak berubah.',
  },
};

export function buildResetEmail(input: {
  to: string;
  name: string;
  link: string;
  locale: LocaleCode | null;
  ttlMinutes: number;
}): MailMessage {
  const t = TEXTS[input.locale ?? DEFAULT_LOCALE];
  const dir = input.locale === 'ar' ? 'rtl' : 'ltr';
  const text = [
    t.greeting(input.name),
    '',
    t.body,
    '',
    `${t.action}: ${input.link}`,
    '',
    t.expiry(input.ttlMinutes),
    t.ignore,
  ].join('\n');
  const html = `<!doctype html><html lang="${input.locale ?? DEFAULT_LOCALE}" dir="${dir}"><body style="font-family:system-ui,sans-serif;line-height:1.6;color:#1d2233">
<p>${escapeUTF8(t.greeting(input.name))}</p><p>${escapeUTF8(t.body)}</p>
<p><a href="${escapeUTF8(input.link)}" style="display:inline-block;padding:10px 18px;background:#3b4fd8;color:#fff;border-radius:6px;text-decoration:none">${escapeUTF8(t.action)}</a></p>
<p style="font-size:14px;color:#555">${escapeUTF8(t.expiry(input.ttlMinutes))}<br>${escapeUTF8(t.ignore)}</p></body></html>`;
  return { to: input.to, subject: t.subject, text, html };
}
