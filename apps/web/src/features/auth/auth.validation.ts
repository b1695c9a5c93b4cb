/**
 * Client-side checks mirroring the contract's RegisterBody/LoginBody rules, so people see mistakes before a round
 * trip. The server validates again; its message wins when it answers.
 */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(value: string): string | null {
  const email = value.trim();
  if (!email) return 'Email is required';
  if (email.length > 254) return 'Email is too long';
  if (!EMAIL.test(email)) return 'Please enter a valid email address';
  return null;
}

export function validateNewPassword(value: string): string | null {
  if (!value) return 'Password is required';
  if (value.length < 8) return 'Password must be at least 8 characters';
  if (value.length > 256) return 'Password must be at most 256 characters';
  return null;
}

export function validateName(value: string): string | null {
  const name = value.trim();
  if (!name) return 'Name is required';
  if (name.length > 100) return 'Name must be at most 100 characters';
  return null;
}

export function validatePasswordConfirmation(password: string, confirmation: string): string | null {
  if (!confirmation) return 'Please repeat the password';
  return password === confirmation ? null : 'Passwords do not match';
}
