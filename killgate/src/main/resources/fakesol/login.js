// fakesol: the login wall's "Log in" goes to the sign-in page on another origin (see FakeSolLogin).
document.addEventListener('click', (e) => {
  if (e.target.closest && e.target.closest('[data-testid="login-button"]')) {
    location.assign('http://localhost:' + location.port + '/auth/login');
  }
});
