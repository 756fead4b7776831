/** What a form's captcha secret is sealed for (secrets/secret-box.ts): copied to another form, it does not open. */
export function captchaSecretContext(formId: string): string {
  return `form-captcha-secret:${formId}`;
}
