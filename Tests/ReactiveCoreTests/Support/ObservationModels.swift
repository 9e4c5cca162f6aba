import ReactiveCore

final class Contact: ObservableObject {
  @Published var name = "Ann"
  @Published var age = 21
}
