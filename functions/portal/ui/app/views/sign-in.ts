/** Sign-up from an operator's invitation link, and sign-in. */
import { api } from '../api';
import { fail, field, formText, h, quiet } from '../dom';
import { narrowPage } from '../layout';
import { go } from '../navigation';

export const signUpView = (params: URLSearchParams): void => {
  const main = narrowPage('Create your account');
  const invitation = params.get('invitation') || '';
  const form = h(
    'form',
    {
      onsubmit: (event) => {
        event.preventDefault();
        api
          .signUp({
            invitation,
            email: formText(form, 'email'),
            password: formText(form, 'password'),
            name: formText(form, 'name') || undefined,
          })
          .then(() => go('#/overview'), fail);
      },
    },
    field('E-mail (the invited address)', { name: 'email', type: 'email', required: true, autocomplete: 'email' }),
    field('Account name (optional)', { name: 'name', type: 'text', autocomplete: 'organization' }),
    field('Password (at least 12 characters)', {
      name: 'password',
      type: 'password',
      required: true,
      minlength: 12,
      autocomplete: 'new-password',
    }),
    h('button', { type: 'submit' }, 'Create account'),
  );
  if (!invitation)
    main.appendChild(
      h('p', { class: 'notice error', text: 'This page needs the invitation link your operator sent you.' }),
    );
  main.appendChild(form);
  main.appendChild(h('p', {}, 'Already have an account? ', h('a', { href: '#/signin' }, 'Sign in')));
};

export const signInView = (): void => {
  const main = narrowPage('Sign in');
  const form = h(
    'form',
    {
      onsubmit: (event) => {
        event.preventDefault();
        api.signIn({ email: formText(form, 'email'), password: formText(form, 'password') }).then(() => {
          quiet();
          go('#/overview');
        }, fail);
      },
    },
    field('E-mail', { name: 'email', type: 'email', required: true, autocomplete: 'username' }),
    field('Password', { name: 'password', type: 'password', required: true, autocomplete: 'current-password' }),
    h('button', { type: 'submit' }, 'Sign in'),
  );
  main.appendChild(form);
};
