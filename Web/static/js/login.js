// The login page is a plain form; this module only puts the cursor in the token field.
document.querySelector('input[name=token]')?.focus();
