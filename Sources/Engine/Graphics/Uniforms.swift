import CGL

// Uniforms of the program applied by the last `applyPipeline`, by name. Names the program does
// not use (the compiler may strip them) are ignored, as GL does.

extension Graphics {
    public func setUniform(_ name: String, _ value: Mat4) {
        guard let l = location(name) else { return }
        var m = value.m
        withUnsafeBytes(of: &m) { glUniformMatrix4fv(l, 1, GLboolean(GL_FALSE), $0.bindMemory(to: GLfloat.self).baseAddress) }
    }

    public func setUniform(_ name: String, _ value: Vec3f) {
        guard let l = location(name) else { return }
        glUniform3f(l, value.x, value.y, value.z)
    }

    public func setUniform(_ name: String, _ value: Color) {
        guard let l = location(name) else { return }
        glUniform4f(l, value.r, value.g, value.b, value.a)
    }

    public func setUniform(_ name: String, _ value: Float) {
        guard let l = location(name) else { return }
        glUniform1f(l, value)
    }

    public func setUniform(_ name: String, _ value: Int32) {
        guard let l = location(name) else { return }
        glUniform1i(l, value)
    }

    private func location(_ name: String) -> GLint? {
        guard let shader = currentShader else { return nil }
        let l = shader.location(name)
        return l >= 0 ? l : nil
    }
}
